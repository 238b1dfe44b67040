import Exposure
import SonyProtocol
import TestSupport
import Testing

/// The real RX100M7 0x9209 dump: decoded byte-exactly, re-encoded identically.
@Suite(.enabled(if: Fixtures.available, Fixtures.skipReason))
struct SonyPropertyDumpTests {
    static let dumpPath = "sony/rx100m7_SDIO_GetAllExtDevicePropInfo_0x9209.payload.bin"

    func realDump() throws -> (bytes: [UInt8], dump: SonyPropertyDump) {
        let bytes = try Fixtures.load(Self.dumpPath)
        return (bytes, try SonyPropertyDump(decoding: bytes, protocolVersion: .v3_00))
    }

    @Test func decodesAllSeventyEightRX100M7PropertiesAndReencodesIdenticalBytes() throws {
        let (bytes, dump) = try realDump()
        #expect(bytes.count == 3521)
        #expect(dump.descriptors.count == 78)
        #expect(dump.encoded(protocolVersion: .v3_00) == bytes)
    }

    @Test func hexCopyDecodesToTheSameDump() throws {
        let hex = try Fixtures.hexLines("sony/rx100m7_SDIO_GetAllExtDevicePropInfo_0x9209.payload.hex").flatMap { $0 }
        let decoded = try SonyPropertyDump(decoding: hex, protocolVersion: .v3_00)
        #expect(try decoded == realDump().dump)
    }

    @Test func rx100m7ShutterSpeedIsOneFifteenthWithSixtyTwoSpeedsFromBulbTo1Over32000() throws {
        let table = SonyPropertyTable(try realDump().dump)
        let shutter = try #require(table[.shutterSpeed])
        #expect(shutter.dataType == .uint32)
        #expect(shutter.isSettable)
        #expect(shutter.factoryValue == .uint32(0xFFFF_FFFF))
        #expect(table.shutterSpeed == SonyShutterValue(rawValue: 0x0001_000F))
        #expect(table.shutterSpeed?.label == "1/15")

        let speeds = table.supportedShutterSpeeds
        #expect(speeds.count == 62)
        #expect(table.settableShutterSpeeds == speeds)
        #expect(speeds.first == .bulb)
        #expect(speeds[1] == SonyShutterValue(numerator: 300, denominator: 10))
        #expect(speeds[1].speed == ShutterSpeed(numerator: 30, denominator: 1))
        #expect(speeds[1].label == "30\"")
        #expect(speeds.last == SonyShutterValue(numerator: 1, denominator: 32000))
        #expect(speeds.last?.label == "1/32000")
        #expect(speeds.allSatisfy { $0.isValid })
        // The camera lists them in notch order already: BULB, then ever shorter exposures.
        #expect(SonyShutterStepping.notchOrder(speeds) == speeds)
        #expect(Set(speeds).count == 62)
    }

    @Test func rx100m7IsInManualModeWithTheOtherPropertiesHdrshootReads() throws {
        let table = SonyPropertyTable(try realDump().dump)
        #expect(table.exposureMode == .manual)
        let mode = try #require(table[.exposureProgramMode])
        #expect(mode.enabled == .displayOnly)
        #expect(mode.settableValues.isEmpty)
        #expect(mode.supportedValues.count == 28)
        #expect(
            mode.supportedValues.prefix(4) == [
                .uint32(0x0001_0002), .uint32(0x0002_0003), .uint32(0x0003_0004), .uint32(1)
            ])
        #expect(table.focusMode == .automaticAF)
        #expect(table.shootingFileInfo == .empty)
        #expect(table.saveDestination == .host)
        #expect(table.priorityKey == .cameraPosition)
        #expect(table[.priorityKeySettings]?.supportedValues == [.uint8(0), .uint8(1)])
        #expect(table[.compressionSetting] == nil)
        #expect(table[.focusIndication]?.currentValue == .uint8(1))
        #expect(table[.batteryLevel]?.form == .range(minimum: .int8(-1), maximum: .int8(100), step: .int8(1)))
        #expect(table[.exposureBiasCompensation]?.supportedValues.last == .int16(-3000))
    }

    @Test func rx100m7StringPropertiesDecodeIncludingTheLiveViewURL() throws {
        let table = SonyPropertyTable(try realDump().dump)
        let empty = try #require(table[SonyPropertyCode(rawValue: 0xD223)])
        #expect(empty.currentValue == .string(""))
        #expect(empty.form == .none)
        let url = try #require(table[SonyPropertyCode(rawValue: 0xD278)]?.currentValue)
        guard case let .string(text) = url else {
            Issue.record("0xD278 is not a string: \(url)")
            return
        }
        #expect(text.hasPrefix("http://192.168.122.1:60152/liveviewstream"))
    }

    @Test func everyTruncationOfTheRealDumpThrowsInsteadOfTrapping() async throws {
        let (bytes, _) = try realDump()
        for length in 0..<bytes.count {
            // Long CPU-bound loop: let the other suites' tasks run (the pool has only 2 threads here).
            if length % 64 == 0 { await Task.yield() }
            #expect(throws: SonyProtocolError.self) {
                _ = try SonyPropertyDump(decoding: Array(bytes.prefix(length)), protocolVersion: .v3_00)
            }
        }
    }

    @Test func trailingBytesAfterTheLastDescriptorAreRefused() throws {
        let (bytes, _) = try realDump()
        #expect(throws: SonyProtocolError.malformed(.trailingBytes(count: 1, after: "78 property descriptors"))) {
            _ = try SonyPropertyDump(decoding: bytes + [0], protocolVersion: .v3_00)
        }
    }

    @Test func theThreePointZeroDumpDoesNotParseAsTwoPointZero() throws {
        let (bytes, _) = try realDump()
        #expect(throws: SonyProtocolError.self) {
            _ = try SonyPropertyDump(decoding: bytes, protocolVersion: .v2_00)
        }
    }

    @Test func reencodedAsTwoPointZeroItKeepsTheSupportedListOnly() throws {
        let (bytes, dump) = try realDump()
        let old = dump.encoded(protocolVersion: .v2_00)
        #expect(old.count < bytes.count)
        let decoded = try SonyPropertyDump(decoding: old, protocolVersion: .v2_00)
        #expect(decoded.descriptors.count == 78)
        for (original, single) in zip(dump.descriptors, decoded.descriptors) {
            #expect(single.supportedValues == original.supportedValues)
            #expect(single.settableValues == original.supportedValues)
            #expect(single.currentValue == original.currentValue)
        }
        #expect(decoded.encoded(protocolVersion: .v2_00) == old)
    }
}

/// Corrupted copies of the real dump: every outcome is a value or a `SonyProtocolError`, never a trap.
@Suite(.enabled(if: Fixtures.available, Fixtures.skipReason))
struct SonyPropertyDumpCorruptionTests {
    /// A fixed-seed generator (SplitMix64), so every run corrupts the same bytes.
    struct SplitMix64: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test func randomByteCorruptionsDecodeOrThrowTypedErrors() async throws {
        let bytes = try Fixtures.load(SonyPropertyDumpTests.dumpPath)
        var generator = SplitMix64(state: 0x5E5_D20D)
        var refused = 0
        for round in 0..<500 {
            if round % 16 == 0 { await Task.yield() }
            var corrupted = bytes
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                corrupted[Int.random(in: 0..<corrupted.count, using: &generator)] = UInt8.random(
                    in: 0...255, using: &generator)
            }
            do {
                let dump = try SonyPropertyDump(decoding: corrupted, protocolVersion: .v3_00)
                // Whatever decodes must encode back to the very same bytes.
                #expect(dump.encoded(protocolVersion: .v3_00) == corrupted)
            } catch is SonyProtocolError {
                refused += 1
            }
        }
        #expect(refused > 0)
    }
}
