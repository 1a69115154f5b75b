import Foundation
import SwipeTestSupport
import Testing

/// What only the executable knows: options before the environment before the
/// XDG defaults, and the advice that names options and commands (the
/// libraries' errors carry values and no CLI words).
@Suite final class EnvironmentTests {
    let temporary = TemporaryFolder("swipe-env")
    var folder: String { temporary.path }

    func swipe(_ arguments: [String], environment: [String: String] = [:], stdin: String = "/dev/null") throws
        -> SwipeBinary.Result
    {
        try SwipeBinary.run(arguments, environment: environment, stdin: stdin)
    }

    /// Imports profiles a and b into `path`.
    func makeDatabase(_ path: String) throws {
        let csv = temporary.file("p-\(UUID().uuidString).csv", "id,name,age\na,Ana,30\nb,Bo,31\n")
        let result = try swipe(["import", "--db", path, csv])
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func dbBeatsSwipeDBWhichBeatsXDG() throws {
        let option = folder + "/option.sqlite"
        let fromEnvironment = folder + "/env.sqlite"
        try makeDatabase(option)
        let both = try swipe(["stats", "--db", option], environment: ["SWIPE_DB": fromEnvironment])
        #expect(both.status == 0, "\(both.stderr)")
        // SWIPE_DB (missing) is named although XDG_DATA_HOME holds a database.
        let xdg = folder + "/xdg"
        try makeDatabase(xdg + "/swipe/swipe.sqlite")
        let env = try swipe(["stats"], environment: ["SWIPE_DB": fromEnvironment, "XDG_DATA_HOME": xdg])
        #expect(env.status == 66)
        #expect(env.stderr.contains(fromEnvironment + ": no such database"))
        #expect(try swipe(["stats"], environment: ["XDG_DATA_HOME": xdg]).status == 0)
    }

    /// The XDG rule: a relative XDG_DATA_HOME is ignored for ~/.local/share.
    @Test func aRelativeXDGDataHomeFallsBackToHome() throws {
        let home = folder + "/home"
        let result = try swipe(["stats"], environment: ["HOME": home, "XDG_DATA_HOME": "relative/data"])
        #expect(result.status == 66)
        #expect(result.stderr.hasPrefix("swipe: \(home)/.local/share/swipe/swipe.sqlite: no such database"))
    }

    @Test func theMissingDatabaseAdviceIsAPastableCommand() throws {
        let path = folder + "/my db/it's.sqlite"
        let result = try swipe(["stats", "--db", path])
        #expect(result.status == 66)
        let quoted = "'" + path.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
        #expect(
            result.stderr
                == "swipe: \(path): no such database (create one with `swipe import --db \(quoted) profiles.csv`)\n")
    }

    @Test func asBeatsSwipeAsAndNoViewerSaysHowToChoose() throws {
        let db = folder + "/v.sqlite"
        try makeDatabase(db)
        let none = try swipe(["history", "--db", db])
        #expect(none.status == 64)
        #expect(
            none.stderr == "swipe: no viewer chosen: pass --as PROFILE_ID or set SWIPE_AS "
                + "(a REPL session remembers its viewer in the database)\n")
        // zed is no profile: SWIPE_AS is used without --as, and --as wins over it.
        let fromEnvironment = try swipe(["history", "--db", db], environment: ["SWIPE_AS": "zed"])
        #expect(fromEnvironment.status == 64)
        #expect(
            fromEnvironment.stderr == "swipe: viewer \"zed\" is not a profile in this database (see `swipe profiles`)\n"
        )
        let fromOption = try swipe(["history", "--db", db, "--as", "a"], environment: ["SWIPE_AS": "zed"])
        #expect(fromOption.status == 0, "\(fromOption.stderr)")
    }

    @Test func aViewerFromMemoryIsNamedOnStandardError() throws {
        let db = folder + "/m.sqlite"
        try makeDatabase(db)
        let script = temporary.file("deck.txt", "deck\n")
        #expect(try swipe(["repl", "--db", db, "--as", "b"], environment: [:], stdin: script).status == 0)
        let remembered = try swipe(["history", "--db", db])
        #expect(remembered.status == 0)
        #expect(remembered.stderr == "swipe: as b, the viewer last used with this database (--as chooses another)\n")
        let chosen = try swipe(["history", "--db", db, "--as", "a"])
        #expect(chosen.status == 0 && chosen.stderr.isEmpty, "\(chosen.stderr)")
    }

    @Test func aFailedImportAdvisesSkipInvalid() throws {
        let db = folder + "/i.sqlite"
        let csv = temporary.file("bad.csv", "id,name,age\na,Ana,30\nb,Bo,7\n")
        let result = try swipe(["import", "--db", db, csv])
        #expect(result.status == 65)
        #expect(result.stderr.hasSuffix("nothing imported (1 invalid row; --skip-invalid imports the valid ones)\n"))
    }
}
