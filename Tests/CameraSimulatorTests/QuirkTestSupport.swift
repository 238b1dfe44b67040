import CameraSimulator
import PTPIP
import SonyProtocol
import TestSupport
import Testing

/// Runs a simulator on 127.0.0.1 port 0 whose time is `clock` (virtual: exposures, processing, notch steps,
/// focus and idle timers move only when the test advances it), with fast timings, for the duration of `body`.
func withSimulator<T: Sendable>(
    clock: TestClock,
    _ configure: (inout SimulatorConfiguration) -> Void = { _ in },
    _ body: (CameraSimulator) async throws -> T
) async throws -> T {
    let configuration = SimulatorConfiguration.loopback {
        $0.imageSize = 10_000
        configure(&$0)
    }
    return try await CameraSimulator.withRunning(configuration: configuration, clock: clock, body)
}

extension TestClock {
    /// Lets `duration` pass for the simulator. Its timer sleeps until the instant of its next deadline (and
    /// not at all when nothing is due), so every deadline this reaches fires, whether the timer sleeps on the
    /// clock already or is still planning its sleep after the last request.
    func pass(_ duration: Duration) async {
        advance(by: duration)
    }
}

extension PTPIPClient {
    /// Sets a property with SDIO_SetExtDevicePropValue (0x9205).
    func set(_ code: SonyPropertyCode, to value: PTPValue) async throws {
        _ = try await execute(.sdioSetExtDevicePropValue, parameters: [UInt32(code.rawValue)], sending: value.encoded)
    }

    /// Sets the shutter speed directly (0x9205 on 0xD20D).
    func setShutter(_ value: SonyShutterValue) async throws {
        try await set(.shutterSpeed, to: value.ptpValue)
    }

    /// Steps the shutter speed by `notches` with SDIO_ControlDevice (0x9207 on 0xD20D; + is faster).
    func stepShutter(_ notches: Int) async throws {
        let parameter = try SonyShutterStepping.controlParameter(notches: notches)
        _ = try await execute(
            .sdioControlDevice, parameters: [UInt32(SonyPropertyCode.shutterSpeed.rawValue)],
            sending: PTPValue.uint8(parameter).encoded)
    }

    /// The current value of one property, from a full 0x9209 read.
    func currentValue(of code: SonyPropertyCode) async throws -> PTPValue? {
        try await propertyTable()[code]?.currentValue
    }

    /// Waits for a DevicePropChanged event naming `code` (skipping other events).
    func waitForPropertyChange(_ code: SonyPropertyCode) async throws {
        while try await waitForEvent(.sonyDevicePropChanged).parameters != [UInt32(code.rawValue)] {}
    }

    /// Connects a client and runs the Sony handshake.
    static func session(with simulator: CameraSimulator) async throws -> PTPIPClient {
        let client = try await connectClient(to: simulator)
        try await client.startSonySession()
        return client
    }
}

/// Shutter values the quirk tests use.
enum Speeds {
    static let fast = SonyShutterValue(numerator: 1, denominator: 125)
    static let faster = SonyShutterValue(numerator: 1, denominator: 160)
    static let twoSeconds = SonyShutterValue(numerator: 20, denominator: 10)
    static let fifteenSeconds = SonyShutterValue(numerator: 150, denominator: 10)
    static let thirtySeconds = SonyShutterValue(numerator: 300, denominator: 10)
}

/// 0xD213 / 0xD1AD / 0xD15B codes and values as the reference writes them (pp. 447, 393, 349).
enum QuirkCodes {
    static let afWithShutter = SonyPropertyCode(rawValue: 0xD1AD)
    static let longExposureNR = SonyPropertyCode(rawValue: 0xD15B)
    static let shutterList = SonyPropertyCode(rawValue: 0xD229)
    static let off = PTPValue.uint8(0x01)
    static let on = PTPValue.uint8(0x02)
    static let unlocked = PTPValue.uint8(0x01)
    static let focusedAFS = PTPValue.uint8(0x02)
    static let notFocusedAFS = PTPValue.uint8(0x03)
    static let trackingAFC = PTPValue.uint8(0x05)
    static let focusedAFC = PTPValue.uint8(0x06)
}
