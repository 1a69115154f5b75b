import Testing

@testable import SwipeCLI

@Suite("JSON writer")
struct JSONValueTests {
    @Test(
        "numbers: rounded to 4 places, shortest spelling, never non-finite",
        arguments: [
            (1.0, "1"), (0.0, "0"), (-0.0, "0"), (247.5, "247.5"), (283.95, "283.95"),
            // 0.94 + 0.06·0.45 computed in binary is 0.9670000000000001; 4 places give 0.967.
            (0.94 + 0.06 * 0.45, "0.967"), (-7.199999999999999, "-7.2"), (0.00004, "0"), (0.00006, "0.0001"),
            (1e12, "1000000000000"), (Double.nan, "null"), (Double.infinity, "null"),
        ])
    func numbers(value: Double, text: String) {
        #expect(JSONValue.number(value).serialized == text)
    }

    @Test("strings escape quotes, backslashes and control characters")
    func strings() {
        #expect(JSONValue.string("a\"b\\c\nd\u{1B}e\u{7F}é").serialized == #""a\"b\\c\nd\u001be\u007fé""#)
    }

    @Test("objects keep their key order")
    func order() {
        let value = JSONValue.object([("ok", true), ("command", "x"), ("a", .array([1, nil]))])
        #expect(value.serialized == #"{"ok":true,"command":"x","a":[1,null]}"#)
    }
}
