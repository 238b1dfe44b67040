import CameraSimulator
import PTPIP
import SonyProtocol
import Testing

/// The shutter button and what one connection holds, as states of the simulated body.
@Suite("Simulated camera: the shutter button and what one connection holds")
struct SimulatedCameraButtonTests {
    @Test func theButtonFollowsS1AndS2AndANewConnectionStartsWithItUp() throws {
        var driver = try CameraDriver {
            $0.focusMode = .singleAF
            $0.quirks = [.afLock(.milliseconds(300))]
        }
        driver.connect()
        // S2 alone in AF: taken (OK), nothing fires, and S1 is not held.
        #expect(driver.button(.s2Button, .down).code == .ok)
        #expect(driver.camera.shutterButton == .fullyPressed(halfPressed: nil))
        #expect(driver.camera.frameCount == 0)
        // S1 joins it: autofocus runs for the af-lock time, then settles.
        #expect(driver.button(.s1Button, .down).code == .ok)
        #expect(driver.camera.shutterButton == .fullyPressed(halfPressed: .focusing(settlesAt: .milliseconds(300))))
        #expect(driver.camera.nextDeadline == .milliseconds(300))
        driver.wait(.milliseconds(300))
        #expect(driver.camera.shutterButton == .fullyPressed(halfPressed: .settled))
        #expect(driver.button(.s2Button, .up).code == .ok)
        #expect(driver.camera.shutterButton == .halfPressed(.settled))
        // The link closes with S1 held: the next connection starts with the button up and no session.
        driver.camera.connectionClosed(now: driver.now)
        #expect(driver.camera.shutterButton == .up)
        #expect(driver.camera.session == .closed && driver.camera.connectPhase == 0)
        #expect(driver.camera.nextDeadline == nil)
    }
}
