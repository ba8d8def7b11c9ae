/// Rows of cells written aligned in columns: each cell but a row's last is padded to its column's widest
/// cell plus two spaces. Widths count Unicode scalars (the tables' text has no combining marks). The
/// cells are the bytes of one buffer, so that a table of 100,000 rows builds no String per cell.
struct AlignedColumns {
    /// The cells' text: a cell's bytes are appended here, then `endCell()` ends it.
    var text = OutputText()
    /// Where each cell ends in `cells`, and its width.
    private var cellEnds: [Int] = []
    private var cellWidths: [Int] = []
    /// Where each row ends in `cellEnds`.
    private var rowEnds: [Int] = []
    private var widths: [Int] = []

    var rowCount: Int { rowEnds.count }

    mutating func reserveCapacity(rows: Int, columns: Int, bytes: Int) {
        text.reserveCapacity(bytes)
        cellEnds.reserveCapacity(rows * columns)
        cellWidths.reserveCapacity(rows * columns)
        rowEnds.reserveCapacity(rows)
    }

    /// Ends the current row's cell whose bytes were appended to `text` since the last cell ended.
    mutating func endCell() {
        let start = cellEnds.last ?? 0
        let width = text.scalarCount(start..<text.count)
        let column = cellEnds.count - (rowEnds.last ?? 0)
        if column == widths.count { widths.append(width) } else { widths[column] = max(widths[column], width) }
        cellEnds.append(text.count)
        cellWidths.append(width)
    }

    /// Ends the current row.
    mutating func endRow() {
        rowEnds.append(cellEnds.count)
    }

    mutating func appendRow(_ row: [String]) {
        for cell in row {
            text.append(cell)
            endCell()
        }
        endRow()
    }

    /// The most bytes `write(row:indent:to:)` appends for all rows, to reserve them at once.
    func writtenSizeBound(indent: Int) -> Int {
        text.count + rowCount * (indent + 1 + widths.reduce(0, +) + 2 * widths.count)
    }

    /// Appends row `row` after `indent`, and a line end.
    func write(row: Int, indent: String, trimmingTrailingSpaces: Bool = false, to out: inout OutputText) {
        out.append(indent)
        let first = row == 0 ? 0 : rowEnds[row - 1]
        for cell in first..<rowEnds[row] {
            out.append(text, from: (cell == 0 ? 0 : cellEnds[cell - 1])..<cellEnds[cell])
            if cell < rowEnds[row] - 1 { out.appendSpaces(widths[cell - first] - cellWidths[cell] + 2) }
        }
        if trimmingTrailingSpaces { out.removeTrailingSpaces() }
        out.append(UInt8(ascii: "\n"))
    }
}
