import Foundation
import TestSupport
import Testing

@testable import WebRemote

/// The QR encoder, checked against a real decoder: zbarimg (Debian's zbar-tools) reads what it draws.
@Suite struct QRCodeTests {
    static let zbarimg = ["/usr/bin/zbarimg", "/usr/local/bin/zbarimg"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// URLs as `serve` prints them, from short to the longest an IPv6 listen address gives, and a text of each
    /// version's edge.
    static let texts = [
        "http://127.0.0.1:8080/#token=abcdefghijklmnopqrstuvwxyz012345",
        "http://192.168.4.1:8080/#token=Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0MTIz",
        "http://[fe80::1234:5678:9abc:def0]:65535/#token=" + String(repeating: "x", count: 64),
        "a", String(repeating: "b", count: 14), String(repeating: "c", count: 100), String(repeating: "d", count: 200)
    ]

    @Test(.enabled(if: zbarimg != nil, "needs zbarimg (apt-get install zbar-tools)"), arguments: texts)
    func zbarimgDecodesWhatItDraws(text: String) async throws {
        let code = try QRCode(text)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("code.pbm")
        try Data(code.portableBitmap(scale: 4).utf8).write(to: file)
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: try #require(Self.zbarimg)),
            arguments: ["--raw", "-q", "-Sdisable", "-Sqrcode.enable", file.path])
        #expect(result.exitCode == 0, "zbarimg: \(result.standardError)")
        #expect(
            result.standardOutput.trimmingCharacters(in: .newlines) == text,
            "version \(code.version), mask \(code.mask)")
    }

    @Test func theSmallestVersionThatHoldsTheTextIsChosen() throws {
        #expect(try QRCode("a").version == 1)
        #expect(try QRCode("http://127.0.0.1:8080/#token=abcdefghijklmnopqrstuvwxyz012345").version == 4)
        #expect(throws: QRCode.Failure.tooLong(bytes: 300, maximum: 213)) {
            try QRCode(String(repeating: "z", count: 300))
        }
    }

    /// ISO/IEC 18004's worked example (version 1-M, "HELLO WORLD" in alphanumeric mode): data codewords and
    /// the ten error correction codewords the standard lists.
    @Test func reedSolomonMatchesTheStandardsExample() {
        let data: [UInt8] = [32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236, 17, 236, 17]
        let ec = ReedSolomon.remainder(data, generator: ReedSolomon.generator(degree: 10))
        #expect(ec == [196, 35, 39, 119, 235, 215, 231, 226, 93, 23])
    }

    @Test func formatAndVersionBitsMatchTheStandardsTables() {
        #expect(QRMatrix.formatBits(level: 0b00, mask: 0) == 0b101_0100_0001_0010)
        #expect(QRMatrix.formatBits(level: 0b01, mask: 4) == 0b110_0110_0010_1111)
        #expect(QRMatrix.versionBits(7) == 0b00_0111_1100_1001_0100)
    }

    @Test func theTerminalFormDrawsTwoModuleRowsPerLine() throws {
        let code = try QRCode("a")
        let lines = code.terminalText(quietZone: 2).split(separator: "\n")
        #expect(lines.count == (21 + 4 + 1) / 2)
        #expect(lines.allSatisfy { $0.count == 25 })
    }
}
