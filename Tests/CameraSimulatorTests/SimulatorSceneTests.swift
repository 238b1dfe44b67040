import CameraSimulator
import Exposure
import Foundation
import ImageLuminance
import ImageMetadata
import PTPIP
import SonyProtocol
import Testing

@Suite("Simulator --scene over loopback TCP: images that show the scene at their exposure")
struct SimulatorSceneTests {
    /// The true range's ends hold, and one stop past either end clips or blocks: in the JPEG and in the ARW's
    /// preview, read back by the DC decoder through the same path the range check uses.
    @Test(arguments: Scene.Name.allCases)
    func eachSceneHoldsItsTrueRangeAndFailsAStopBeyond(name: Scene.Name) async throws {
        let scene = Scene.named(name)
        let range = scene.trueRange()
        let speeds = ShutterScale.third.allSpeeds
        let longer = speeds[min(speeds.count - 1, speeds.firstIndex(of: range.highlight)! + 3)]
        let shorter = speeds[max(0, speeds.firstIndex(of: range.shadow)! - 3)]
        try await withSimulator({
            $0.scene = name
            $0.fileFormat = .rawAndJPEG
            $0.exposureCap = .milliseconds(5)
            // What counts is what the images show, not how long the body takes to write them.
            $0.processingTime = .milliseconds(1)
        }) { simulator in
            let client = try await connectClient(to: simulator)
            try await client.startSonySession()
            for (speed, holdsHighlights, opensShadows) in [
                (range.highlight, true, nil as Bool?), (longer, false, nil), (range.shadow, nil, true),
                (shorter, nil, false)
            ] {
                let files = try await client.shootScene(speed)
                #expect(files.count == 2, "a JPEG and an ARW")
                for file in files {
                    let frame = FrameLuminance(speed: speed, image: try LumaReader.read(file))
                    if let holdsHighlights {
                        #expect((frame.clippedFraction <= 0.0002) == holdsHighlights, "\(name) at \(speed.label)")
                    }
                    if let opensShadows {
                        #expect((frame.blockedFraction <= 0.10) == opensShadows, "\(name) at \(speed.label)")
                    }
                }
            }
            await client.disconnect()
        }
    }

    /// 0xD1B5 Metered Manual Level follows the shutter speed: 0 at the metered time, +1000 a stop longer.
    @Test func theMeterReadsTheSceneAtTheSetSpeed() async throws {
        try await withSimulator({ $0.scene = .interiorWindow }) { simulator in
            let client = try await connectClient(to: simulator)
            try await client.startSonySession()
            let scene = Scene.named(.interiorWindow)
            for speed in [ShutterSpeed(numerator: 1, denominator: 60), ShutterSpeed(numerator: 1, denominator: 8)] {
                _ = try await client.execute(
                    .sdioSetExtDevicePropValue, parameters: [0xD20D],
                    sending: bodyValue(speed).ptpValue.encoded)
                let level = try await client.propertyTable()[SonyPropertyCode(rawValue: 0xD1B5)]?.currentValue
                let expected = Int16((Math.log2(speed.seconds / scene.meteredSeconds) * 1000).rounded())
                #expect(level == .int16(expected), "at \(speed.label)")
            }
            await client.disconnect()
        }
    }

    @Test func anUnknownSceneIsRefusedWithTheNames() {
        #expect(
            throws: SimulatorError.invalidValue(
                option: "--scene", value: "beach", expected: "interior-window, sunset, night-street, grey-card")
        ) {
            try SimulatorConfiguration.parse(arguments: ["--scene", "beach"])
        }
    }
}

/// `speed` in the body's own encoding: tenths of a second from 0.4" up (the RX100M7's way), else 1/N.
func bodyValue(_ speed: ShutterSpeed) -> SonyShutterValue {
    guard speed.seconds >= 0.4 else { return SonyShutterValue(speed)! }
    return SonyShutterValue(numerator: UInt16((speed.seconds * 10).rounded()), denominator: 10)
}

private enum Math {
    static func log2(_ x: Double) -> Double { Foundation.log2(x) }
}

extension PTPIPClient {
    /// Sets `speed`, releases, and downloads every file the capture leaves (two for RAW+JPEG).
    fileprivate func shootScene(_ speed: ShutterSpeed) async throws -> [[UInt8]] {
        _ = try await execute(
            .sdioSetExtDevicePropValue, parameters: [0xD20D], sending: bodyValue(speed).ptpValue.encoded)
        try await release()
        var files: [[UInt8]] = []
        for _ in 0..<2 {
            _ = try await waitForEvent(.sonyObjectAdded)
            files.append(try await execute(.getObject, parameters: [SonyObjectHandle.stillImage]).data)
        }
        return files
    }
}
