// Camera Remote API micro-benchmark: one JSON-RPC call (getShutterSpeed) against the in-process legacy
// simulator on loopback, through our HTTP client over Posix sockets and through FoundationNetworking's
// URLSession (keep-alive both ways). The figures behind the choice stated in CameraRemoteAPI's HTTPClient.
// Prints figures, asserts nothing. Run in release: `swift run -c release hdrshoot-bench remote-api`.
import CameraRemoteAPI
import Foundation
import FoundationNetworking
import LegacyCameraSimulator

/// Runs both clients against one simulator and prints the median and 99th percentile per call.
func runRemoteAPIBenchmark(calls: Int) async {
    print("Camera Remote API call (getShutterSpeed, loopback HTTP, in-process legacy simulator):")
    var configuration = LegacySimulatorConfiguration()
    configuration.needsStartRecMode = false
    do {
        let simulator = try LegacyCameraSimulator(configuration: configuration)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await simulator.run() }
            defer { simulator.close() }
            do {
                let endpoint = RemoteURL(host: "127.0.0.1", port: simulator.port, path: "/sony/camera")
                let client = try CameraRemoteAPIClient(endpoint: endpoint)
                defer { client.close() }
                let ours = try await measure(calls: calls) { _ in _ = try await client.getShutterSpeed() }
                report("CameraRemoteAPIClient (Posix sockets)", ours)
                let session = URLSession(configuration: .ephemeral)
                defer { session.invalidateAndCancel() }
                let url = URL(string: endpoint.description)!
                let theirs = try await measure(calls: calls) { index in
                    var request = URLRequest(url: url)
                    request.httpMethod = "POST"
                    request.httpBody = Data(
                        JSONRPCRequest(method: "getShutterSpeed", id: index).encoded())
                    _ = try await session.post(request)
                }
                report("URLSession (FoundationNetworking)", theirs)
            } catch {
                print("  remote-api benchmark failed: \(error)")
            }
        }
    } catch {
        print("  remote-api benchmark failed: \(error)")
    }
}

/// Times `calls` calls after 100 warm-up calls.
private func measure(calls: Int, _ call: (Int) async throws -> Void) async throws -> [Duration] {
    let clock = ContinuousClock()
    var samples: [Duration] = []
    samples.reserveCapacity(calls)
    for index in 0..<(calls + 100) {
        let start = clock.now
        try await call(index)
        if index >= 100 { samples.append(clock.now - start) }
    }
    return samples
}

private func report(_ name: String, _ samples: [Duration]) {
    let sorted = samples.sorted()
    let p99 = sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
    print(
        "  \(name): median \(BenchmarkSupport.format(BenchmarkSupport.median(samples), in: .microseconds)), "
            + "p99 \(BenchmarkSupport.format(p99, in: .microseconds)) per call (\(samples.count) calls)")
}

extension URLSession {
    /// One POST through a data task, bridged to async (the completion-handler API exists on every toolchain).
    fileprivate func post(_ request: URLRequest) async throws -> Data {
        try await withCheckedThrowingContinuation { continuation in
            dataTask(with: request) { data, _, error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume(returning: data ?? Data())
                }
            }.resume()
        }
    }
}
