import CameraSimulator

extension SimulatorConfiguration {
    /// A quick simulated body for tests: on 127.0.0.1, on a port the kernel picks (port 0, read back from
    /// the running simulator), with 20 ms of processing and of notch steps and no faults; `adjust` sets the rest.
    package static func loopback(
        _ adjust: (inout SimulatorConfiguration) -> Void = { _ in }
    ) -> SimulatorConfiguration {
        var configuration = SimulatorConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.processingTime = .milliseconds(20)
        configuration.stepDelay = .milliseconds(20)
        configuration.faults = []
        adjust(&configuration)
        return configuration
    }
}
