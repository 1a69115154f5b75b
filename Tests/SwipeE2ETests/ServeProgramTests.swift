import Foundation
import Testing

/// `swipe serve` and `swipe link` are run by a program of their own,
/// `swipe-serve`, so `swipe` builds without the web server (Documentation/
/// Architecture.md, "Two programs"): what a person types stays the same.
@Suite struct ServeProgramTests {
    @Test func swipeHelpListsServeAndLinkAndTheirHelpIsSwipeServes() throws {
        let help = try SwipeBinary.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("serve") && help.stdout.contains("Serve the deck as a web page"))
        #expect(help.stdout.contains("link") && help.stdout.contains("Print a sign-in link"))

        // The options only swipe-serve knows: proof that the help came from it.
        let serveHelp = try SwipeBinary.run(["serve", "--help"])
        #expect(serveHelp.status == 0)
        #expect(serveHelp.stdout.contains("USAGE: swipe serve"))
        #expect(serveHelp.stdout.contains("--public-url"))
        let linkHelp = try SwipeBinary.run(["help", "link"])
        #expect(linkHelp.status == 0)
        #expect(linkHelp.stdout.contains("USAGE: swipe link"))
        #expect(linkHelp.stdout.contains("--revoke-all"))
    }

    @Test func swipeServeReportsTheSameVersionAsSwipe() throws {
        let swipe = try SwipeBinary.run(["--version"])
        let serve = try SwipeBinary.run(["serve", "--version"])
        #expect(swipe.status == 0 && serve.status == 0)
        #expect(!swipe.stdout.isEmpty)
        #expect(serve.stdout == swipe.stdout)
    }

    /// A `swipe` copied where no `swipe-serve` is, with a PATH that has
    /// none: exit 69 (unavailable), saying what to build; nothing else runs.
    @Test func withoutSwipeServeServeAndLinkSayHowToBuildIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("swipe-alone-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let alone = folder.appendingPathComponent("swipe")
        do {
            try FileManager.default.linkItem(at: SwipeBinary.url, to: alone)
        } catch {
            try FileManager.default.copyItem(at: SwipeBinary.url, to: alone)
        }
        for arguments in [["serve", "--port", "0"], ["link", "--as", "a"], ["help", "serve"]] {
            let result = try SwipeBinary.run(
                arguments, executable: alone, environment: ["PATH": folder.path + ":/usr/bin:/bin"])
            #expect(result.status == 69, "\(arguments)")
            #expect(result.stderr.contains("swipe-serve"), "\(arguments)")
            #expect(result.stderr.contains("swift build --product swipe-serve"), "\(arguments)")
            #expect(result.stdout.isEmpty)
        }
        // Every other command is unaffected.
        let version = try SwipeBinary.run(["--version"], executable: alone)
        #expect(version.status == 0)
    }
}
