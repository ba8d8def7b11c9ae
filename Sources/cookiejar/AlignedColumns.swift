/// Rows of cells written aligned in columns: each cell but a row's last is padded to its column's widest
/// cell plus two spaces. Widths are terminal columns (`Unicode.Scalar.terminalColumns`: a CJK character
/// takes two, a combining mark none). The cells are the bytes of one buffer, so that a table of 100,000
/// rows builds no String per cell.
struct AlignedColumns: ~Copyable {
    /// The cells' text: a cell's bytes are appended here, then `endCell()` ends it.
    var text = OutputText()
    /// Where each cell ends in `text`, and its width.
    private var cells: [(end: Int, width: Int)] = []
    /// Where each row ends in `cells`.
    private var rowEnds: [Int] = []
    private var widths: [Int] = []
    /// The current row's column.
    private var column = 0

    var rowCount: Int { rowEnds.count }

    mutating func reserveCapacity(rows: Int, columns: Int, bytes: Int) {
        text.reserveCapacity(bytes)
        cells.reserveCapacity(rows * columns)
        rowEnds.reserveCapacity(rows)
    }

    /// Ends the current row's cell whose bytes were appended to `text` since the last cell ended.
    mutating func endCell() {
        let width = text.terminalColumns((cells.last?.end ?? 0)..<text.count)
        if column == widths.count { widths.append(width) } else if width > widths[column] { widths[column] = width }
        cells.append((text.count, width))
        column += 1
    }

    /// Ends the current row.
    mutating func endRow() {
        rowEnds.append(cells.count)
        column = 0
    }

    mutating func appendRow(_ row: [String]) {
        for cell in row {
            text.append(contentsOf: cell)
            endCell()
        }
        endRow()
    }

    /// Appends every row, each after `indent` and with its trailing spaces trimmed, each with a line end.
    func writeRows(indent: StaticString, to out: inout OutputText) {
        for row in 0..<rowCount { write(row: row, indent: indent, trimmingTrailingSpaces: true, to: &out) }
    }

    /// Appends row `row` after `indent`, and a line end.
    func write(row: Int, indent: StaticString, trimmingTrailingSpaces: Bool = false, to out: inout OutputText) {
        out.append(indent)
        let first = row == 0 ? 0 : rowEnds[row - 1]
        let last = rowEnds[row] - 1
        var start = first == 0 ? 0 : cells[first - 1].end
        for cell in first..<rowEnds[row] {
            out.append(text, from: start..<cells[cell].end)
            start = cells[cell].end
            if cell < last { out.appendSpaces(widths[cell - first] - cells[cell].width + 2) }
        }
        if trimmingTrailingSpaces { out.removeTrailingSpaces() }
        out.endLine()
    }
}
