/// The fixed parts of the contact sheet's HTML: the head with its style sheet, and the page's frame.
///
/// The content security policy lets the page load images from its own origin (the rendition store beside
/// it) and `data:` URIs (the placeholders), and nothing else: no script runs and nothing is fetched from the
/// network, even if a manifest were made to hold a URL.
enum ContactSheetPage {
    static func head(title: String) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src 'self' data:; \
        style-src 'unsafe-inline'">
        <title>\(HTMLText.escaped(title))</title>
        <style>
        body { font: 14px/1.45 system-ui, "DejaVu Sans", sans-serif; margin: 0 24px 48px; color: #222;
               background: #f6f6f4; }
        h1 { font-size: 22px; margin: 20px 0 2px; }
        h2 { font-size: 17px; margin: 26px 0 8px; padding-bottom: 3px; border-bottom: 1px solid #ccc; }
        code { font: 13px/1.3 "DejaVu Sans Mono", monospace; }
        .where { color: #666; margin: 0; }
        table.summary { border-collapse: collapse; }
        table.summary th { text-align: left; font-weight: 600; padding: 2px 18px 2px 0; }
        table.summary td { padding: 2px 18px 2px 0; font-variant-numeric: tabular-nums; }
        .group { background: #fff4f1; border: 1px solid #efc6bb; border-radius: 5px; margin: 6px 0;
                 padding: 6px 10px; }
        .group.unsupported { background: #f4f4f0; border-color: #ddd; }
        .group summary { cursor: pointer; font-weight: 600; }
        .group ul { margin: 6px 0 2px; padding-left: 20px; }
        .group li code { margin-right: 8px; }
        .none { color: #2a7a2a; }
        article { background: #fff; border: 1px solid #ddd; border-radius: 6px; margin: 10px 0;
                  padding: 10px 12px; content-visibility: auto; contain-intrinsic-size: auto 280px; }
        article h3 { font: 600 13px/1.3 "DejaVu Sans Mono", monospace; margin: 0 0 2px;
                     overflow-wrap: anywhere; }
        .meta { color: #555; margin: 0 0 8px; }
        .row { display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; }
        figure { margin: 0; width: min-content; }
        figcaption { font-size: 12px; color: #555; margin-top: 3px; }
        figure img { display: block; border: 1px solid #e4e4e4;
                     background: repeating-conic-gradient(#e9e9e9 0 25%, #fff 0 50%) 0 0 / 16px 16px; }
        </style>
        </head>
        <body>

        """
    }

    static let foot = "</body>\n</html>\n"
}
