import Foundation
import Synchronization
import Testing

@testable import WebRemote

/// The link's health read from a session log as it grows (lines in the writer's own format), across the
/// writer's rename of its file.
@Suite struct SessionLogTailTests {
    static let opening = """
        {"t":0.001,"kind":"session","command":"run","version":"0.1"}
        {"t":0.005,"kind":"connect","address":"192.168.122.1:15740","ms":0.993,"outcome":"connected"}
        {"t":0.020,"kind":"op","code":"0x1002","name":"OpenSession","tid":1,"params":[1],"response":"0x2001","responseName":"OK","data":"none","length":0,"ms":2.5}
        {"t":0.029,"kind":"runner","event":"frame","position":"set 1, frame 1","phase":"settingSpeed","speed":"1/1000"}

        """

    @Test func followsTheLogAsItGrowsAcrossItsRenameAndAPartialLine() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hdrshoot-tail-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = folder.appendingPathComponent("session.jsonl").path
        let path = Mutex(first)
        let tail = SessionLogTail { path.withLock { $0 } }
        #expect(SessionLogTail { nil }.read() == nil)

        // The last line has not fully arrived: it waits for its newline.
        try Data((Self.opening + #"{"t":0.5,"kind":"op","name":"GetObject","ms":41"#).utf8).write(
            to: URL(fileURLWithPath: first))
        let early = try #require(tail.read())
        #expect(early.lastOperationMilliseconds == 2.5)
        #expect(early.lastOperation == "OpenSession")
        #expect(early.reconnects == 0)
        #expect(
            early.lines == [
                "0.0 s session", "0.0 s connect 192.168.122.1:15740 connected",
                "0.0 s runner frame set 1, frame 1 settingSpeed 1/1000"
            ])

        // The writer renames its file once the shoot has an id; the bytes go on where they were.
        let renamed = folder.appendingPathComponent("session-20261126-1900-ab12.jsonl").path
        try FileManager.default.moveItem(atPath: first, toPath: renamed)
        path.withLock { $0 = renamed }
        let handle = try #require(FileHandle(forWritingAtPath: renamed))
        try handle.seekToEnd()
        try handle.write(
            contentsOf: Data(
                """
                .5}
                {"t":3.0,"kind":"runner","event":"reconnecting","attempt":1,"delay":"0.5 seconds"}
                {"t":4.0,"kind":"runner","event":"reconnected","attempt":1}
                {"t":4.1,"kind":"shown","stream":"out","text":"Reconnected to the camera.\\nmore"}
                not json
                {"t":4.2,"kind":"op","name":"SDIO_ControlDevice","ms":3.25}

                """.utf8))
        try handle.close()
        let later = try #require(tail.read())
        #expect(later.lastOperationMilliseconds == 3.25)
        #expect(later.lastOperation == "SDIO_ControlDevice")
        #expect(later.reconnects == 1)
        #expect(later.lines.count == SessionLogTail.shownLines)
        #expect(later.lines.last == "4.1 s Reconnected to the camera.")
        #expect(later.lines.contains("4.0 s runner reconnected attempt 1"))
    }
}
