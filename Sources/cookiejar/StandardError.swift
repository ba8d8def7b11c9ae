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
