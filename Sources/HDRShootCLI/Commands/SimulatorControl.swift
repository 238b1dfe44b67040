import CameraSimulator
import Foundation

/// `hdrshoot simulate`'s control channel: the photographer's hands on the simulated body, one word a line on
/// standard input (`ok` or `refuse` at the pairing screen, `power-cycle`), and a line on standard output when
/// a computer asks to pair. Only with `--pairing` or `--hold-session-after-drop`: a simulator started in the
/// background of an interactive shell would be stopped (SIGTTIN) by reading its terminal.
enum SimulatorControl {
    /// Reads commands until input ends, and announces pairing requests until cancelled.
    static func run(_ simulator: CameraSimulator, output: any OutputStreams) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await name in simulator.pairingAsks {
                    output.writeOut("pairing: '\(name)' asks to pair; type ok or refuse\n")
                }
            }
            group.addTask {
                var line: [UInt8] = []
                for await byte in KeyboardInput.keys() {
                    guard byte == UInt8(ascii: "\n") else {
                        line.append(byte)
                        continue
                    }
                    output.writeOut(await perform(String(decoding: line, as: UTF8.self), on: simulator) + "\n")
                    line.removeAll()
                }
            }
            await group.waitForAll()
        }
    }

    /// Carries out one command line and returns what the simulator says of it.
    static func perform(_ command: String, on simulator: CameraSimulator) async -> String {
        switch command.trimmingCharacters(in: .whitespaces).lowercased() {
        case "ok", "allow", "approve":
            let count = await simulator.answerPairing(allow: true)
            return count == 0 ? "pairing: nothing waits for an answer" : "pairing: allowed (\(count))"
        case "refuse", "cancel":
            let count = await simulator.answerPairing(allow: false)
            return count == 0 ? "pairing: nothing waits for an answer" : "pairing: refused (\(count))"
        case "power-cycle":
            let held = await simulator.holdsStaleSession
            await simulator.powerCycle()
            return held ? "power-cycled: the dropped session is gone" : "power-cycled"
        case "":
            return ""
        case let other:
            return "unknown control '\(other)'; type ok, refuse or power-cycle"
        }
    }
}
