import Exposure
import Foundation
import Shooting

/// A runner for a test: `camera` shooting `plan` on `clock` (virtual time unless the test passes another),
/// telling `recorder`. The output folder does not exist unless the test passes one: the in-memory and
/// scripted cameras write no files there.
package func makeRunner(
    _ camera: any RemoteCamera, plan: BracketPlan, clock: any Clock<Duration> = TestClock(),
    recorder: any ShootRecorder = NoRecorder(), reconnect: ReconnectPolicy = .standard,
    outputDirectory: URL = URL(fileURLWithPath: "/nonexistent/shoot")
) -> BracketRunner {
    let configuration = BracketRunner.Configuration(outputDirectory: outputDirectory, reconnect: reconnect)
    return BracketRunner(camera: camera, plan: plan, configuration: configuration, recorder: recorder, clock: clock)
}

/// A series runner for a test: `camera` on `schedule` on `clock`, planned and recorded by `recorder`, its
/// first start `elapsed` ago. Each repetition's folder is `<outputDirectory>/rep-NNN`; by default a folder
/// that does not exist, since the in-memory camera writes no files.
package func makeSeries<C: Clock<Duration>>(
    _ camera: any RemoteCamera, schedule: RepetitionSchedule, recorder: any SeriesRecorder, clock: C,
    elapsed: Duration = .zero, outputDirectory: URL = URL(fileURLWithPath: "/nonexistent/series")
) -> SeriesRunner {
    let configuration = BracketRunner.Configuration(outputDirectory: outputDirectory)
    return SeriesRunner(
        camera: camera, schedule: schedule, configuration: configuration, recorder: recorder, elapsed: elapsed,
        clock: clock)
}
