import PTPIPCodec
import SonyCamera
import SonyProtocol
import TestSupport
import Testing

/// The camera report built straight from the real RX100M7 bytes (no simulator in between).
@Suite("SonyCameraInfo from the real RX100M7 bytes", .enabled(if: Fixtures.available, Fixtures.skipReason))
struct SonyCameraInfoTests {
    @Test func decodesTheRealDumpThroughTheModel() throws {
        let device = try DeviceInfo(decoding: try Fixtures.load("sony/rx100m7_GetDeviceInfo_0x1001.payload.bin"))
        let ext = try SonyExtDeviceInfo(
            decoding: try Fixtures.load("sony/rx100m7_SDIO_GetExtDeviceInfo_0x9202.payload.bin"))
        let dump = try SonyPropertyDump(
            decoding: try Fixtures.load("sony/rx100m7_SDIO_GetAllExtDevicePropInfo_0x9209.payload.bin"),
            protocolVersion: ext.protocolVersion)
        #expect(dump.descriptors.count == 78)
        let info = SonyCameraInfo(deviceInfo: device, extDeviceInfo: ext, properties: SonyPropertyTable(dump))
        RX100M7Expectations.check(info)
    }

    @Test func aCameraSavingToTheCardOnlyIsBlocked() throws {
        let device = try DeviceInfo(decoding: try Fixtures.load("sony/rx100m7_GetDeviceInfo_0x1001.payload.bin"))
        let ext = try SonyExtDeviceInfo(
            decoding: try Fixtures.load("sony/rx100m7_SDIO_GetExtDeviceInfo_0x9202.payload.bin"))
        var table = SonyPropertyTable(
            try SonyPropertyDump(
                decoding: try Fixtures.load("sony/rx100m7_SDIO_GetAllExtDevicePropInfo_0x9209.payload.bin"),
                protocolVersion: ext.protocolVersion))
        table.setCurrentValue(.uint16(SonySaveDestination.camera.rawValue), for: .saveDestination)
        let info = SonyCameraInfo(deviceInfo: device, extDeviceInfo: ext, properties: table)
        #expect(!info.canShoot)
        #expect(info.saveDestination == "camera")
        #expect(info.blockers.count == 1)
    }
}
