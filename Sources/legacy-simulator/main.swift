// legacy-simulator: runs the simulated legacy Camera Remote API body as a process, for outside clients
// (scripts/remote-api-interop.sh). Prints "listening on http://127.0.0.1:PORT/dd.xml" and serves until killed.
// The options are `hdrshoot simulate --api`'s (LegacySimulatorConfiguration.usage); the port defaults to 0 here.
//
//   legacy-simulator [--port N] [--mode M|S|A|P] [--no-rec-mode] [--quirk ...] ...
import CameraSimulator
import Foundation
import LegacyCameraSimulator

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") {
    print("usage: legacy-simulator [options]\n" + LegacySimulatorConfiguration.usage)
    exit(0)
}
if !arguments.contains(where: { $0 == "--port" || $0.hasPrefix("--port=") }) { arguments += ["--port", "0"] }
let configuration: LegacySimulatorConfiguration
do {
    configuration = try LegacySimulatorConfiguration.parse(arguments: arguments)
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(64)
}
do {
    let simulator = try LegacyCameraSimulator(configuration: configuration)
    FileHandle.standardOutput.write(Data("listening on \(simulator.descriptionURL)\n".utf8))
    await simulator.run()
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(69)
}
