import Foundation
import Testing
import VariantdTestSupport

@testable import VariantdCore
@testable import variantd

/// The product's words speak of the product only, never of how or when it was made.
///
/// Product text is every text file (`swift`, `c`, `h`, `md`, `sh`, `py`, `patch`, `service`, `txt`) under
/// `Sources/`, `docs/`, `scripts/` and `Fuzz/` (its harnesses; `Fuzz/corpus` is data), the READMEs and
/// generators of `Samples/`, `README.md`, `Package.swift`, and the help of every subcommand. The tests' own
/// comments and messages (`Tests/`, this file aside) are held to the same rules, except that they may name
/// the fixtures they read beside the checkout. A line fails when it names:
///
/// - a work period: a numbered stop (`stop 12`) or a stop relative to now (`the previous stop`), this or a
///   previous session, the last round, today, tonight, yesterday, or a time of day (`the evening`, `that
///   night`);
/// - an issue: `issue 31`, `issue #31` (or ticket, bug, PR), or `#31` standing alone in a sentence (a CSS
///   colour such as `#222;` or a quoted `"#0072B2"` is not one);
/// - the build environment: a sandbox (Chromium's `--no-sandbox` flag aside), the workplace, the CI or build
///   machine, a shared machine, the machine's other engineers, builds, sessions or helpers, the coordinator;
/// - a file that is not shipped: `oracle.py` (outside `Tests/`), or `../shared` in help output. Elsewhere
///   `../shared` may be named as what it is: an optional corpus beside the checkout, absent in a plain clone.
@Suite struct ProductTextTests {
    /// Where a rule applies.
    enum Scope: Sendable {
        /// Product text, the tests and help.
        case everywhere
        /// Product text and help, not the tests.
        case product
        /// Help output only.
        case help
    }

    /// One kind of word product text must not use: case-insensitive patterns, and where they apply.
    struct Rule: Sendable {
        let name: String
        let scope: Scope
        let patterns: [String]
    }

    static let rules = [
        Rule(
            name: "work period", scope: .everywhere,
            patterns: [
                #"\bstop\s+#?\d+\b"#, #"\b(this|previous|last|next|earlier|later) stop\b"#,
                #"\b(this|previous|earlier|later|last|next) sessions?\b"#, #"\b(last|previous) round\b"#,
                #"\b(tonight|today|yesterday|tomorrow)\b"#,
                #"\b(this|that|the|last) (morning|afternoon|evening|night)\b"#,
            ]),
        Rule(
            name: "issue number", scope: .everywhere,
            patterns: [
                #"\b(issues?|tickets?|bugs?|PRs?|pull requests?)\s+#?\d+\b"#,
                #"(?:^|(?<=[\s(\[]))#\d{1,5}(?=$|[\s,.:)\]])"#,
            ]),
        Rule(
            name: "build environment", scope: .everywhere,
            patterns: [
                #"(?<![-\w])sandbox(es)?\b"#,
                #"\b(workplace|CI machine|build machine|shared (\d+-core )?machine|coordinator)\b"#,
                #"\bother (engineers|builds|sessions|helpers)\b"#,
            ]),
        Rule(name: "not shipped", scope: .product, patterns: [#"\boracle\.py\b"#]),
        Rule(name: "not shipped", scope: .help, patterns: [#"\.\./shared\b"#]),
    ]

    private static let root = TestPaths.packageRoot
    private static let textExtensions: Set = ["swift", "c", "h", "md", "sh", "py", "patch", "service", "txt"]

    /// Every offence of `text`, as `place:line: rule: "matched text"`.
    static func offences(in text: String, place: String = "", scopes: Set<Scope>) -> [String] {
        let expressions = rules.filter { scopes.contains($0.scope) }.flatMap { rule in
            rule.patterns.map {
                (rule.name, try! NSRegularExpression(pattern: $0, options: .caseInsensitive))
            }
        }
        return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().flatMap {
            index, line in
            let line = String(line)
            return expressions.compactMap { name, expression in
                expression.firstMatch(in: line, range: NSRange(line.startIndex..., in: line))
                    .flatMap { Range($0.range, in: line) }
                    .map { "\(place):\(index + 1): \(name): \"\(line[$0])\"" }
            }
        }
    }

    /// The product's text files and the tests' (without this file), relative to the package root.
    static func textFiles() -> [String] {
        let own = URL(fileURLWithPath: #filePath).standardizedFileURL.path
        var files = ["README.md", "Package.swift"]
        for folder in ["Sources", "docs", "scripts", "Fuzz", "Samples", "Tests"] {
            let base = root.appendingPathComponent(folder)
            guard let walk = FileManager.default.enumerator(atPath: base.path) else { continue }
            for case let path as String in walk {
                let url = base.appendingPathComponent(path)
                guard Self.textExtensions.contains(url.pathExtension), !path.hasPrefix("corpus/"),
                    url.standardizedFileURL.path != own
                else { continue }
                files.append(folder + "/" + path)
            }
        }
        return files.sorted()
    }

    @Test func filesSpeakOfTheProductOnly() throws {
        let files = Self.textFiles()
        #expect(files.contains("docs/Benchmarks.md") && files.contains("Sources/variantd/Program.swift"))
        let found = try files.flatMap { path in
            let text = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
            let scopes: Set<Scope> = path.hasPrefix("Tests/") ? [.everywhere] : [.everywhere, .product]
            return Self.offences(in: text, place: path, scopes: scopes)
        }
        #expect(found.isEmpty, "\n\(found.joined(separator: "\n"))")
    }

    @Test func helpSpeaksOfTheProductOnly() {
        let helps =
            [("help", Program.tool.overview)]
            + Program.tool.subcommands.map { ("help \($0.name)", Program.tool.help(for: $0)) }
        let found = helps.flatMap { name, text in
            Self.offences(in: text, place: name, scopes: [.everywhere, .product, .help])
        }
        #expect(found.isEmpty, "\n\(found.joined(separator: "\n"))")
    }

    @Test(arguments: [
        "Measured at stop 24, before the previous stop's change.",
        "the build of this session", "as the last round found", "JPEG 1.51× earlier that night",
        "(issue 8's W1)", "see #31.", "absent in a clone outside the workplace",
        "while other engineers built", "on the shared 2-core machine", "runs in the sandbox",
        "check them with oracle.py check",
    ])
    func aLineNamingHowTheProductWasMadeIsFound(line: String) {
        #expect(!Self.offences(in: line, scopes: [.everywhere, .product]).isEmpty)
    }

    @Test(arguments: [
        "\"--headless\", \"--no-sandbox\", \"--disable-gpu\"", "color: #222; fill: \"#0072B2\"",
        "a pooled session the server ended", "SIGTERM: stop claiming, finish the jobs in flight",
        "no ../shared/corpus beside the checkout (a plain clone)", "each of 4 rounds, the last one included",
        "2026-12-02 04:22 UTC, load average 1.0 before",
    ])
    func aLineAboutTheProductPasses(line: String) {
        #expect(Self.offences(in: line, scopes: [.everywhere, .product]).isEmpty)
    }

    @Test func helpMayNotNameTheSharedFolder() {
        #expect(!Self.offences(in: "Default: ../shared/corpus", scopes: [.help]).isEmpty)
    }
}
