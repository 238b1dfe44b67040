// hdrshoot-bench: prints timing figures for hdrshoot's hot paths. Benchmarks print, they never assert.
//
// Usage: swift run -c release hdrshoot-bench <benchmark> [options]
// Each benchmark lives in its own file and is listed in `Benchmarks.all`.

import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first, let benchmark = Benchmarks.all.first(where: { $0.name == name }) else {
    var usage = "usage: hdrshoot-bench <benchmark> [options]\n\nbenchmarks:\n"
    for benchmark in Benchmarks.all { usage += "  \(benchmark.name)  \(benchmark.summary)\n" }
    let asked = arguments.first == "--help" || arguments.first == "-h"
    if asked { print(usage, terminator: "") } else { FileHandle.standardError.write(Data(usage.utf8)) }
    exit(asked ? 0 : 64)
}
exit(benchmark.run(Array(arguments.dropFirst())))
