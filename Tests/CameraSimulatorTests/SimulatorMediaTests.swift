import CameraSimulator
import PTPIP
import SonyProtocol
import Testing

/// The battery (0xD218) and card (0xD249) figures the simulated body reports, and a full card.
struct SimulatorMediaTests {
    @Test func eachStoredImageTakesAShotAndAFullCardFiresNothing() throws {
        var driver = try CameraDriver {
            $0.processingTime = .zero
            $0.cardShots = 1
            $0.batteryPercent = 64
        }
        driver.connect()
        #expect(driver.camera.value(of: SonyPropertyCode.batteryRemaining) == .int8(64))
        #expect(driver.camera.value(of: SonyPropertyCode.remainingShots) == .uint32(1))
        _ = driver.button(.s1Button, .down)
        _ = driver.button(.s2Button, .down)
        _ = driver.button(.s2Button, .up)
        _ = driver.button(.s1Button, .up)
        driver.wait(.seconds(1))
        #expect(driver.camera.frameCount == 1)
        #expect(driver.camera.value(of: SonyPropertyCode.remainingShots) == .uint32(0))
        _ = driver.send(.getObject, [SonyObjectHandle.stillImage])
        // The card is full: the release is taken and nothing fires.
        _ = driver.button(.s1Button, .down)
        _ = driver.button(.s2Button, .down)
        _ = driver.button(.s2Button, .up)
        _ = driver.button(.s1Button, .up)
        driver.wait(.seconds(1))
        #expect(driver.camera.frameCount == 1)
    }

    @Test func cardAndBatteryOptionsParse() throws {
        let configuration = try SimulatorConfiguration.parse(arguments: ["--card-shots", "12", "--battery", "30"])
        #expect(configuration.cardShots == 12 && configuration.batteryPercent == 30)
        #expect(throws: SimulatorError.self) { try SimulatorConfiguration.parse(arguments: ["--card-shots", "-1"]) }
    }
}
