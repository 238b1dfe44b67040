// The one HTTP codec (the HTTP target) and the Camera Remote API's device description scanner under the fuzzer
// (called from FuzzTarget.run): the bytes as one HTTP response stream, as a request stream, and as a description.
// Whole and split feeding must agree; any trap is a bug (bad bytes may only throw).

import CameraRemoteAPI
import HTTP

/// What the HTTP side of each input is put through.
enum HTTPFuzzTarget {
    /// Puts one input through the response and request parsers (whole and in `chunk`-byte pieces) and the
    /// device description scanner.
    static func run(_ bytes: [UInt8], chunk: Int) {
        let limits = HTTPLimits(maximumHeadBytes: 4096, maximumHeaderCount: 32, maximumBodyBytes: 1 << 16)
        let whole = responses(bytes, chunk: max(1, bytes.count), limits: limits)
        let split = responses(bytes, chunk: chunk, limits: limits)
        // The same responses come out however the stream is split, up to the first error.
        let common = min(whole.responses.count, split.responses.count)
        precondition(
            Array(whole.responses.prefix(common)) == Array(split.responses.prefix(common)),
            "split feeding changed a response")
        if whole.failed == false && split.failed == false {
            precondition(whole.responses == split.responses, "split feeding changed the responses")
        }
        for response in whole.responses {
            precondition(response.body.count <= limits.maximumBodyBytes, "a body past the limit came out")
        }
        var requests = HTTPRequestParser(limits: limits)
        requests.append(bytes)
        while let request = try? requests.nextRequest() {
            precondition(request.body.count <= limits.maximumBodyBytes, "a request body past the limit came out")
            // What a server parsed, encoded again, parses back to the same method, target and body.
            var again = HTTPRequestParser(limits: HTTPLimits(maximumHeadBytes: 1 << 20, maximumHeaderCount: 1024))
            again.append(request.encoded(host: "h"))
            if let reparsed = try? again.nextRequest() {
                precondition(
                    reparsed.method == request.method && reparsed.target == request.target
                        && reparsed.body == request.body, "a request changed in an encode and parse round trip")
            }
        }
        if let description = try? DeviceDescription(xml: bytes) {
            _ = try? description.cameraEndpoint()
        }
    }

    private static func responses(
        _ bytes: [UInt8], chunk: Int, limits: HTTPLimits
    ) -> (responses: [HTTPResponse], failed: Bool) {
        var parser = HTTPResponseParser(limits: limits)
        var out: [HTTPResponse] = []
        var start = 0
        do {
            while start < bytes.count {
                let end = min(start + chunk, bytes.count)
                parser.append(bytes[start..<end])
                start = end
                while let response = try parser.nextResponse() { out.append(response) }
            }
            if let last = try parser.finishAtEndOfStream() { out.append(last) }
            return (out, false)
        } catch {
            return (out, true)
        }
    }
}
