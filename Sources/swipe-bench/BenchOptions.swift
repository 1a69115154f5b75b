import Foundation

/// Command-line options of swipe-bench.
struct BenchOptions {
    var sizes = ["10k", "100k", "1M"]
    var runs = 5
    var dataDirectory = "bench-data"
    var swipe = ""
    var only: Set<String> = [
        "import", "ledger", "feed", "queries", "repl", "output", "discovery", "serve", "postgres", "pgimport",
        "writers", "discovery-postgres", "serve-postgres", "photos", "insights",
    ]
    /// WebSockets open at once in the `serve` section.
    var sessions = 200
    var output: String?
    /// A PostgreSQL URI for the COPY comparison and the writers section
    /// (`make bench` starts a throwaway cluster).
    var postgres: String?
    /// The speed-dating nights for the `ranking` section (the data folder's README).
    var speedDating = "../shared/data/speed-dating"

    static let usage = """
        usage: swipe-bench --swipe PATH [--sizes 10k,100k,1M] [--runs N] [--data DIR]
                           [--only import,ledger,feed,queries,repl,output,discovery,serve,postgres,pgimport,writers,
                                  discovery-postgres,serve-postgres,photos,insights] [--sessions N]
                           (serve-chat, serve-postgres-chat: the chat rows of serve alone;
                            serve-staggered, serve-postgres-staggered: its staggered load row alone;
                            serve-closed, serve-postgres-closed: its closed-loop row alone)
                           [--output FILE.md]
                           [--postgres postgres://USER@HOST:PORT/DB]
                           [--only ranking --speed-dating DIR]  (make bench-ranking)
        (discovery's own rows alone: --only quota for the quota check,
         --only discovery-import for the import with the discovery columns)
        """

    init(arguments: [String]) throws {
        var rest = arguments[...]
        func value(_ name: String) throws -> String {
            guard let next = rest.popFirst() else { throw BenchError("\(name) needs a value\n\(Self.usage)") }
            return next
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--sizes": sizes = try value(argument).split(separator: ",").map(String.init)
            case "--runs":
                guard let n = Int(try value(argument)), n >= 5 else { throw BenchError("--runs needs a number ≥ 5") }
                runs = n
            case "--data": dataDirectory = try value(argument)
            case "--swipe": swipe = try value(argument)
            case "--only": only = Set(try value(argument).split(separator: ",").map(String.init))
            case "--output": output = try value(argument)
            case "--sessions":
                guard let n = Int(try value(argument)), n >= 1 else {
                    throw BenchError("--sessions needs a number ≥ 1")
                }
                sessions = n
            case "--postgres": postgres = try value(argument)
            case "--speed-dating": speedDating = try value(argument)
            default: throw BenchError("unknown argument \(argument)\n\(Self.usage)")
            }
        }
        guard FileManager.default.isExecutableFile(atPath: swipe) else {
            throw BenchError("--swipe must name the release-built swipe executable\n\(Self.usage)")
        }
    }
}
