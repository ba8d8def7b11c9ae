import Foundation

/// Prints `message` as one line on standard error, after "cookiejar: ", its control characters shown as
/// `\u{XX}` (`OutputText.appendShowingControls`): messages quote file names, URLs, lines of files and
/// case ids, and a terminal would act on an ESC or BEL among them (move the cursor, retitle the window).
func printError(_ message: String) {
    var line = OutputText()
    line.append("cookiejar: ")
    line.appendShowingControls(message)
    line.append(UInt8(ascii: "\n"))
    line.writeToStandardError()
}

/// Prints `text` (a usage error and its usage, lines of their own) on standard error, its control
/// characters but the line feeds shown as escapes, as `printError` does; a line feed ends it.
func printUsageError(_ text: String) {
    var lines = OutputText()
    lines.appendShowingControls(text, keepingLineBreaks: true)
    if !text.hasSuffix("\n") { lines.append(UInt8(ascii: "\n")) }
    lines.writeToStandardError()
}
