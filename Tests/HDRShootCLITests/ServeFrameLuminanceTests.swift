import CameraRemoteAPI
import Foundation
import HTTP
import TestSupport
import Testing

/// The phone remote's figures under the last frame are the range check's: `hdrshoot serve` (the built binary,
/// its built-in simulator rendering a real scene) shoots a 3x5 bracket from `POST /api/shoot`, and every saved
/// frame's `GET /api/frames/SET/FRAME.json` (what the page draws its histogram and clipping line from) equals
/// the manifest's `luminance` of that frame, which the shoot's range watch wrote. The two once disagreed
/// (26.1 % clipped on the page, 0 % from the range check, for one frame): the page measured its thumbnail
/// against levels 250 and 5.
@Suite("serve: the page's luma is the range check's (built binary)", .realTime)
struct ServeFrameLuminanceTests {
    @Test func everySavedFramesLumaOnThePageEqualsTheManifestsRangeCheck() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let arguments =
            ["--listen", "127.0.0.1:0", "--camera", "simulator", "--scene", "interior-window"]
            + sandbox.shootArguments
        try await ServedRemote.with(arguments, environment: sandbox.environment) { remote, serve in
            let started = try await remote.send(
                "POST", "/api/shoot", body: #"{"shadow": "1/4", "highlight": "1/1000", "frames": 5, "confirm": true}"#)
            #expect(started.status == 200, "\(String(decoding: started.body, as: UTF8.self))")
            let finished = try await eventually(timeout: .seconds(180), every: .milliseconds(100)) {
                let state = try await remote.send("GET", "/api/state")
                let object = (try? JSONSerialization.jsonObject(with: Data(state.body))) as? [String: Any]
                return object?["state"] as? String == "finished"
            }
            try #require(finished, "the shoot did not finish; stderr: \(serve.standardError.suffix(2000))")

            let manifest = try Self.manifest(in: sandbox.outputDirectory)
            let frames = try #require(manifest["frames"] as? [[String: Any]])
            #expect(frames.count == 15)
            var compared = 0
            var clippedSomewhere = false
            for frame in frames {
                let set = try #require(frame["set"] as? Int)
                let number = try #require(frame["frame"] as? Int)
                let measured = try #require(frame["luminance"] as? [String: Any], "set \(set), frame \(number)")
                let answer = try await remote.send("GET", "/api/frames/\(set)/\(number).json")
                #expect(answer.status == 200)
                let page = try #require(
                    (try? JSONSerialization.jsonObject(with: Data(answer.body))) as? [String: Any])
                #expect(
                    page["clippedPercent"] as? Double == measured["clippedPercent"] as? Double,
                    "set \(set), frame \(number)")
                #expect(
                    page["blockedPercent"] as? Double == measured["blockedPercent"] as? Double,
                    "set \(set), frame \(number)")
                #expect(page["histogram"] as? [Int] == measured["histogram"] as? [Int], "set \(set), frame \(number)")
                #expect(page["highlightLevel"] as? Double == 235 && page["shadowLevel"] as? Double == 50)
                if let clipped = measured["clippedPercent"] as? Double, clipped > 0 { clippedSomewhere = true }
                compared += 1
            }
            #expect(compared == 15)
            // The scene's long frames clip: the comparison is not only of zeros.
            #expect(clippedSomewhere)
            // A frame never shot has no reading.
            #expect(try await remote.send("GET", "/api/frames/9/9.json").status == 404)
        }
    }

    /// The one manifest under `output` (serve gives each shoot its own folder).
    static func manifest(in output: String) throws -> [String: Any] {
        let folders = try FileManager.default.contentsOfDirectory(atPath: output)
        let paths = folders.map { output + "/" + $0 + "/manifest.json" }.filter {
            FileManager.default.fileExists(atPath: $0)
        }
        try #require(paths.count == 1, "manifests: \(paths)")
        let data = try Data(contentsOf: URL(fileURLWithPath: paths[0]))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}
