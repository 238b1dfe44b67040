// legacy-simulator: runs the simulated legacy Camera Remote API body as a process, for outside clients
// (scripts/remote-api-interop.sh). Prints "listening on http://127.0.0.1:PORT/dd.xml" and serves until killed.
//
//   legacy-simulator [--port N] [--mode Manual|Shutter|Aperture|Program Auto] [--no-rec-mode]
import Foundation
import LegacyCameraSimulator

var configuration = LegacySimulatorConfiguration()
var port: UInt16 = 0
var arguments = CommandLine.arguments.dropFirst()
while let option = arguments.popFirst() {
    switch option {
    case "--port":
        guard let value = arguments.popFirst().flatMap(UInt16.init) else {
            FileHandle.standardError.write(Data("error: --port needs a number from 0 to 65535\n".utf8))
            exit(64)
        }
        port = value
    case "--mode":
        guard let value = arguments.popFirst() else {
            FileHandle.standardError.write(Data("error: --mode needs a mode\n".utf8))
            exit(64)
        }
        configuration.exposureMode = value
    case "--no-rec-mode":
        configuration.needsStartRecMode = false
    default:
        FileHandle.standardError.write(Data("error: unknown option '\(option)'\n".utf8))
        exit(64)
    }
}
do {
    let simulator = try LegacyCameraSimulator(configuration: configuration, port: port)
    FileHandle.standardOutput.write(Data("listening on \(simulator.descriptionURL)\n".utf8))
    await simulator.run()
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(69)
}
