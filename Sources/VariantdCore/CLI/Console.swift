import Foundation

/// Line output for commands: stdout for results and help, stderr for errors and progress.
public enum Console {
    public static func out(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    public static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
