import Foundation
import JSON

/// A JSON-RPC call as the Camera Remote API wants it: `{"method":..,"params":[..],"id":N,"version":"1.0"}`
/// (reference pp. 22-23: params is always an array, version names the method's API version).
package struct JSONRPCRequest: Sendable, Hashable, Codable {
    /// The API name (`actTakePicture`).
    package var method: String
    /// The parameters, in order.
    package var params: [JSONValue]
    /// The call's number; the answer carries it back.
    package var id: Int
    /// The method's API version (`"1.0"`; getEvent has `"1.0"` to `"1.3"`).
    package var version: String

    /// Creates a call.
    package init(method: String, params: [JSONValue] = [], id: Int, version: String = "1.0") {
        self.method = method
        self.params = params
        self.id = id
        self.version = version
    }

    /// The request body.
    package func encoded() -> [UInt8] {
        // Encoding a JSONValue tree cannot fail.
        (try? Array(JSONEncoder.compact.encode(self))) ?? []
    }

    /// Parses a request body (the simulator's side); throws `.malformedResponse` naming what is wrong.
    package static func decode(_ body: [UInt8]) throws(CameraRemoteAPIError) -> JSONRPCRequest {
        do {
            return try JSONDecoder().decode(JSONRPCRequest.self, from: Data(body))
        } catch {
            throw .malformedResponse(method: "request", reason: "not a JSON-RPC request: \(error)")
        }
    }
}

/// A JSON-RPC answer: `{"result":[...],"id":N}` or `{"error":[code,"message"],"id":N}` (p. 274); some
/// methods answer `"results"` instead of `"result"` (p. 22).
package struct JSONRPCResponse: Sendable, Hashable {
    /// The call's number.
    package var id: Int
    /// What the call returned, or the camera's error code and message.
    package var outcome: Result<[JSONValue], Failure>

    /// The camera's `[code, message]`.
    package struct Failure: Error, Sendable, Hashable {
        /// The error code.
        package var code: RemoteAPIErrorCode
        /// The message (varies between models, p. 274).
        package var message: String

        /// Creates a failure.
        package init(code: RemoteAPIErrorCode, message: String) {
            self.code = code
            self.message = message
        }
    }

    /// Creates an answer.
    package init(id: Int, outcome: Result<[JSONValue], Failure>) {
        self.id = id
        self.outcome = outcome
    }

    /// Parses an answer to `method`; anything but the two shapes above throws `.malformedResponse`.
    package static func decode(_ body: [UInt8], method: String) throws(CameraRemoteAPIError) -> JSONRPCResponse {
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: Data(body))
        } catch {
            throw .malformedResponse(method: method, reason: "not JSON (\(body.count) bytes)")
        }
        guard let members = value.object else { throw .malformedResponse(method: method, reason: "not an object") }
        guard let id = members["id"]?.integer else { throw .malformedResponse(method: method, reason: "no id") }
        if let error = members["error"] {
            guard let parts = error.array, parts.count >= 1, let code = parts[0].integer else {
                throw .malformedResponse(method: method, reason: "error is not [code, message]")
            }
            let message = parts.count > 1 ? parts[1].string ?? "" : ""
            return JSONRPCResponse(
                id: id, outcome: .failure(Failure(code: RemoteAPIErrorCode(rawValue: code), message: message)))
        }
        guard let result = (members["result"] ?? members["results"])?.array else {
            throw .malformedResponse(method: method, reason: "neither result nor error")
        }
        return JSONRPCResponse(id: id, outcome: .success(result))
    }

    /// The answer's body (the simulator's side).
    package func encoded() -> [UInt8] {
        var members: [String: JSONValue] = ["id": .integer(id)]
        switch outcome {
        case let .success(result): members["result"] = .array(result)
        case let .failure(failure):
            members["error"] = .array([.integer(failure.code.rawValue), .string(failure.message)])
        }
        return
            (try? Array(JSONEncoder.compact.encode(JSONValue.object(JSONObject(members.map { ($0.key, $0.value) })))))
            ?? []
    }
}
