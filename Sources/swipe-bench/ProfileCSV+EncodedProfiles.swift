import SwipeCSV
import SwipeStore

extension ProfileCSV {
    /// Every row of a profiles CSV exactly as `importProfiles` binds it: the
    /// seven texts in `ProfileRow.Column` order (id, name, gender, city, bio,
    /// photos, interests; nil is NULL; the discovery columns are left out,
    /// as the floor's table has none) and the age. For swipe-bench's raw
    /// C-API floor, which must insert the same values without a second copy
    /// of the importer's rules. A bad row throws `ImportFailure`.
    package static func forEachEncodedProfile(
        path: String, _ body: (_ texts: [UnsafeBufferPointer<UInt8>?], _ age: Int) throws -> Void
    ) throws {
        let reader = try CSVReader(path: path)
        guard let header = try reader.next() else {
            throw ImportFailure(issues: [ImportIssue(file: path, line: 1, message: "the file is empty")], total: 1)
        }
        let index = try CSVImport.columnIndex(header, path: path, required: Column.required, optional: Column.optional)
        let positions = Column.allCases.map { index[$0.name] }
        var record = CSVRawRecord()
        var row = ProfileRow()
        while try reader.next(into: &record) {
            do {
                try CSVImport.checkFieldCount(record, header: header.fields.count)
                try encode(record, positions: positions, into: &row)
            } catch let issue as RowIssue {
                let problem = ImportIssue(
                    file: path, line: record.line, column: issue.column, value: issue.value, message: issue.message)
                throw ImportFailure(issues: [problem], total: 1)
            }
            try row.bytes.withUnsafeBufferPointer { bytes in
                try body(row.texts.prefix(7).map { $0.map { UnsafeBufferPointer(rebasing: bytes[$0]) } }, row.age)
            }
        }
    }
}
