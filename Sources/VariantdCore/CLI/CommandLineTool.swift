/// The `variantd` command line: finds the subcommand, prints help, and maps failures to exit statuses.
///
/// Help goes to stdout; errors go to stderr with the usage line, as swift-argument-parser tools do. The
/// executable hands it the subcommands, so the benchmarks (a target of their own) join the product's.
public struct CommandLineTool: Sendable {
    /// Every subcommand, in the order the overview lists them.
    package let subcommands: [any Subcommand.Type]

    public init(subcommands: [any Subcommand.Type]) {
        self.subcommands = subcommands
    }

    public func main(_ arguments: [String]) async -> ExitStatus {
        var words = arguments
        guard let first = words.first else {
            Console.out(overview)
            return .success
        }
        words.removeFirst()
        switch first {
        case "-h", "--help":
            Console.out(overview)
            return .success
        case "--version":
            Console.out(VersionReport.text)
            return .success
        case "help":
            guard let name = words.first else {
                Console.out(overview)
                return .success
            }
            guard let command = subcommand(named: name) else {
                return usageFailure(
                    UsageError("Unknown subcommand '\(name)'"), usage: "variantd <subcommand>")
            }
            Console.out(help(for: command))
            return .success
        default:
            guard let command = subcommand(named: first) else {
                return usageFailure(
                    UsageError("Unknown subcommand '\(first)'"), usage: "variantd <subcommand>")
            }
            return await run(command, words)
        }
    }

    package func subcommand(named name: String) -> (any Subcommand.Type)? {
        subcommands.first { $0.name == name }
    }

    private func run(_ type: any Subcommand.Type, _ words: [String]) async -> ExitStatus {
        var arguments = Arguments(words)
        if arguments.wantsHelp {
            Console.out(help(for: type))
            return .success
        }
        let command: any Subcommand
        do {
            command = try type.init(parsing: &arguments)
        } catch {
            return usageFailure(error, usage: "variantd \(type.usage)", helpName: type.name)
        }
        do {
            return try await command.run()
        } catch let error as UsageError {
            return usageFailure(error, usage: "variantd \(type.usage)", helpName: type.name)
        } catch let error as QueueError {
            // The database was unreachable, locked or refused: running the command again may succeed.
            Console.error("Error: \(error)")
            return .temporaryFailure
        } catch {
            Console.error("Error: \(error)")
            return .software
        }
    }

    private func usageFailure(_ error: UsageError, usage: String, helpName: String? = nil)
        -> ExitStatus
    {
        var text = "Error: \(error.message)\nUsage: \(usage)\n"
        text += "  See 'variantd \(helpName.map { "help \($0)" } ?? "--help")' for more information."
        Console.error(text)
        return .usage
    }

    package var overview: String {
        let visible = subcommands.filter { !$0.isHidden }.map {
            (name: $0.name, abstract: $0.abstract)
        }
        let width = (visible.map { $0.name.count }.max() ?? 0) + 4
        let lines = visible.map {
            "  " + $0.name + String(repeating: " ", count: width - $0.name.count) + $0.abstract
        }
        return """
            OVERVIEW: Find out what a stored object really is, measure it, and render its bucket's variants.

            USAGE: variantd <subcommand>

            OPTIONS:
              --version             Show the version, the libvips and libheif versions and the formats.
              -h, --help            Show help information.

            SUBCOMMANDS:
            \(lines.joined(separator: "\n"))

              See 'variantd help <subcommand>' for detailed help.
            """
    }

    package func help(for command: any Subcommand.Type) -> String {
        """
        OVERVIEW: \(command.abstract)

        USAGE: variantd \(command.usage)

        \(command.details)
        """
    }
}
