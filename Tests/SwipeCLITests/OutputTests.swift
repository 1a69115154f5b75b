import Testing

@testable import SwipeCLI
@testable import SwipeSession

@Suite struct OutputTests {
    let columns = ["id", "name", "age", "photos"]
    let rows: [[Cell]] = [
        [.text("p-1"), .text("王芳 \"Fang\"\n\u{1B}[31m"), .int(30), .list(["a.jpg", "b;c.jpg"])],
        [.text("p-2"), .text("Ana"), .int(101), .null],
    ]

    func render(_ format: OutputFormat) -> String {
        var out = ""
        var writer = RecordWriter(format: format, columns: columns)
        for row in rows { writer.write(row, to: &out) }
        writer.finish(to: &out)
        return out
    }

    @Test func jsonIsEscapedDataNotStripped() {
        #expect(
            render(.json) == """
                [
                {"id":"p-1","name":"王芳 \\"Fang\\"\\n\\u001b[31m","age":30,"photos":["a.jpg","b;c.jpg"]},
                {"id":"p-2","name":"Ana","age":101,"photos":null}
                ]

                """)
        #expect(render(.jsonl).split(separator: "\n").count == 2)
    }

    @Test func emptyJSONIsAnEmptyArray() {
        var out = ""
        var writer = RecordWriter(format: .json, columns: columns)
        writer.finish(to: &out)
        #expect(out == "[]\n")
    }

    @Test func csvQuotesWhatNeedsIt() {
        #expect(
            render(.csv)
                == "id,name,age,photos\r\np-1,\"王芳 \"\"Fang\"\"\n\u{1B}[31m\",30,a.jpg;b;c.jpg\r\np-2,Ana,101,\r\n")
    }

    @Test func tableStripsControlsAndCountsColumns() {
        let lines = render(.table).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(!lines.joined().contains("\u{1B}"))
        // name column: "王芳 \"Fang\" \u{FFFD}[31m" is 2+2+1+6+1+1+4 = 17 columns wide.
        #expect(lines[0] == "id   name               age  photos")
        #expect(lines[2] == "p-1  王芳 \"Fang\" \u{FFFD}[31m   30  a.jpg; b;c.jpg")
        #expect(lines[3] == "p-2  Ana                101")
    }

    @Test("a table streams: widths from the first page, later rows cut to them with …, each printed as it comes")
    func tableStreams() {
        final class Recorder: TextOutputStream {
            var text = ""
            func write(_ string: String) { text += string }
        }
        var table = TableLayout(columns: ["id", "name"], pageSize: 2)
        var out = Recorder()
        table.append([.text("a"), .text("Ana")], to: &out)
        #expect(out.text.isEmpty, "the first page is held to measure it")
        table.append([.text("b"), .text("Bo")], to: &out)
        // Widths: id = max(2, 1, 1) = 2, name = max(4, 3, 2) = 4.
        #expect(out.text == "id  name\n--  ----\na   Ana\nb   Bo\n")
        out.text = ""
        table.append([.text("ccc"), .text("Cyrillic Ёжик")], to: &out)
        // "ccc" cut to 2 columns is "c…", "Cyrillic Ёжик" cut to 4 is "Cyr…".
        #expect(out.text == "c…  Cyr…\n", "\(out.text)")
        out.text = ""
        table.append([.text("d"), .text("日本")], to: &out)
        #expect(out.text == "d   日本\n")
        table.finish(to: &out)
        #expect(out.text == "d   日本\n", "nothing more at the end")
    }

    @Test("a table shorter than a page is printed whole at the end")
    func shortTable() {
        var out = ""
        var table = TableLayout(columns: ["n"], pageSize: 100)
        table.append([.int(7)], to: &out)
        table.finish(to: &out)
        #expect(out == "n\n-\n7\n")
    }

    @Test func progressLine() {
        // 450 of 1000 bytes: 45 %, 9 of 20 bar cells; 1200 rows in 0.5 s = 2400 rows/s.
        #expect(
            ProgressLine.render(bytesRead: 450, totalBytes: 1000, rows: 1200, seconds: 0.5)
                == "[#########-----------]  45%  1200 rows  2400 rows/s")
    }
}
