import CameraRemoteAPI
import Testing

/// JSON-RPC bodies as the reference shows them (pp. 22-23, 274).
@Suite struct JSONRPCMessageTests {
    @Test func aRequestEncodesTheFourMembers() {
        let request = JSONRPCRequest(method: "setShutterSpeed", params: [.string("1/2")], id: 7)
        let text = String(decoding: request.encoded(), as: UTF8.self)
        #expect(text == "{\"id\":7,\"method\":\"setShutterSpeed\",\"params\":[\"1/2\"],\"version\":\"1.0\"}")
    }

    @Test func aResultAnErrorAndAResultsAnswerDecode() throws {
        let result = try JSONRPCResponse.decode(Array("{\"result\":[\"1/2\",[\"30\\\"\"]],\"id\":1}".utf8), method: "m")
        #expect(result.outcome == .success([.string("1/2"), .array([.string("30\"")])]))
        let error = try JSONRPCResponse.decode(
            Array("{\"error\":[40403,\"Still Capturing Not Finished\"],\"id\":2}".utf8), method: "m")
        #expect(error.outcome == .failure(.init(code: .captureNotFinished, message: "Still Capturing Not Finished")))
        let results = try JSONRPCResponse.decode(Array("{\"results\":[[true]],\"id\":3}".utf8), method: "m")
        #expect(results.outcome == .success([.array([.bool(true)])]))
    }

    @Test(arguments: [
        "", "[]", "{\"result\":[0]}", "{\"id\":1}", "{\"id\":\"1\",\"result\":[]}",
        "{\"id\":1,\"error\":\"x\"}", "{\"id\":1,\"result\":{}}", "{\"id\":1,\"result\":[0]"
    ])
    func otherShapesAreMalformed(text: String) {
        #expect(throws: CameraRemoteAPIError.self) { try JSONRPCResponse.decode(Array(text.utf8), method: "m") }
    }

    @Test func trueIsNeverOne() throws {
        let answer = try JSONRPCResponse.decode(Array("{\"result\":[true,1,1.5,null],\"id\":1}".utf8), method: "m")
        #expect(answer.outcome == .success([.bool(true), .integer(1), .number(1.5), .null]))
    }

    @Test func errorCodesSayWhetherTheyAreTransient() {
        #expect(RemoteAPIErrorCode.cameraNotReady.isTransient)
        #expect(RemoteAPIErrorCode.captureNotFinished.isTransient)
        #expect(RemoteAPIErrorCode.serviceUnavailable.isTransient)
        #expect(!RemoteAPIErrorCode.illegalArgument.isTransient)
        #expect(!RemoteAPIErrorCode.noSuchMethod.isTransient)
        #expect(!CameraRemoteAPIError.api(.unsupportedVersion, message: "", method: "m").isTransient)
    }
}
