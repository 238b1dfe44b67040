import CameraSimulator
import PTPIP
import SonyProtocol
import TestSupport
import Testing

@Suite("Replaying the recorded RX100M7", .enabled(if: Fixtures.available, Fixtures.skipReason))
struct ReplayTests {
    static let deviceInfo = "sony/rx100m7_GetDeviceInfo_0x1001.payload.bin"
    static let extDeviceInfo = "sony/rx100m7_SDIO_GetExtDeviceInfo_0x9202.payload.bin"
    static let properties = "sony/rx100m7_SDIO_GetAllExtDevicePropInfo_0x9209.payload.bin"

    func replayingDriver() throws -> CameraDriver {
        try CameraDriver {
            $0.replayDeviceInfoPath = Fixtures.root.appendingPathComponent(Self.deviceInfo).path
            $0.replayExtDeviceInfoPath = Fixtures.root.appendingPathComponent(Self.extDeviceInfo).path
            $0.replayPropertiesPath = Fixtures.root.appendingPathComponent(Self.properties).path
        }
    }

    @Test func recordedDataPhasesAreServedVerbatim() throws {
        var driver = try replayingDriver()
        #expect(driver.send(.getDeviceInfo).data?.allBytes == (try Fixtures.load(Self.deviceInfo)))
        _ = driver.send(.openSession, [1])
        #expect(driver.send(.sdioGetExtDeviceInfo, [300]).data?.allBytes == (try Fixtures.load(Self.extDeviceInfo)))
        #expect(driver.send(.sdioGetAllExtDevicePropInfo, [0]).data?.allBytes == (try Fixtures.load(Self.properties)))
    }

    @Test func settingTheShutterPatchesOnlyItsCurrentValueInTheRecording() throws {
        var driver = try replayingDriver()
        _ = driver.send(.openSession, [1])
        _ = driver.send(.sdioGetExtDeviceInfo, [300])
        let target = SonyShutterValue(numerator: 1, denominator: 250)
        #expect(driver.send(.sdioSetExtDevicePropValue, [0xD20D], data: target.ptpValue.encoded).code == .ok)
        let served = driver.send(.sdioGetAllExtDevicePropInfo, [0]).data?.allBytes ?? []
        let recorded = try Fixtures.load(Self.properties)
        #expect(served.count == recorded.count)
        let differing = zip(served, recorded).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        #expect(!differing.isEmpty && differing.count <= 4)
        let table = SonyPropertyTable(try SonyPropertyDump(decoding: served, protocolVersion: .v3_00))
        #expect(table.shutterSpeed == target)
        #expect(table.count == 78)
    }

    @Test func anOlderHostGetsTheRecordingReencodedInItsLayout() throws {
        var driver = try replayingDriver()
        _ = driver.send(.openSession, [1])
        _ = driver.send(.sdioGetExtDeviceInfo, [200])
        let served = driver.send(.sdioGetAllExtDevicePropInfo, [0]).data?.allBytes ?? []
        let table = SonyPropertyTable(try SonyPropertyDump(decoding: served, protocolVersion: .v2_00))
        #expect(table.count == 78)
        #expect(table.shutterSpeed == SonyShutterValue(numerator: 1, denominator: 15))
    }

    @Test func unreadableReplayFilesAreReported() {
        #expect(throws: SimulatorError.self) {
            _ = try CameraDriver {
                $0.replayPropertiesPath = Fixtures.root.appendingPathComponent(Self.deviceInfo).path
            }
        }
        #expect(throws: SimulatorError.self) {
            _ = try CameraDriver { $0.replayDeviceInfoPath = "/nonexistent/device-info.bin" }
        }
    }
}
