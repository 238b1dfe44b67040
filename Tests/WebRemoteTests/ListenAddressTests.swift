import Foundation
import Posix
import TestSupport
import Testing

@testable import WebRemote

/// `--listen`: numeric addresses, interface names, and no wildcard.
@Suite struct ListenAddressTests {
    static let interfaces = [
        HostInterfaceAddress(interface: "lo", address: "127.0.0.1", netmask: "255.0.0.0", isLoopback: true),
        HostInterfaceAddress(interface: "wlan0", address: "192.168.4.1", netmask: "255.255.255.0")
    ]

    @Test func aNumericAddressIsTakenAsIs() throws {
        let listen = try ListenAddress("127.0.0.1:8080") { Self.interfaces }
        #expect(listen.address == SocketAddress(numericHost: "127.0.0.1", port: 8080))
        #expect(listen.interfaceName == nil)
        #expect(try ListenAddress("[::1]:9000") { [] }.address == SocketAddress(numericHost: "::1", port: 9000))
    }

    @Test func anInterfaceNameIsItsIPv4Address() throws {
        let listen = try ListenAddress("wlan0:8080") { Self.interfaces }
        #expect(listen.address == SocketAddress(numericHost: "192.168.4.1", port: 8080))
        #expect(listen.interfaceName == "wlan0")
        #expect(listen.description == "wlan0:8080")
    }

    @Test(arguments: ["0.0.0.0:8080", "[::]:8080", ":8080", "8080", "wlan9:8080", "127.0.0.1:99999", "host"])
    func wildcardsUnknownNamesAndBadPortsAreRefused(text: String) {
        #expect(throws: ListenAddress.Failure.self) { try ListenAddress(text) { Self.interfaces } }
    }

    @Test func theAnnouncementIsOneLineOffATerminalAndAQRCodeOnOne() {
        let url = "http://127.0.0.1:8080/#token=abcdefghijklmnopqrstuvwxyz012345"
        #expect(RemoteAnnouncement.text(url: url, onTerminal: false) == "Remote: \(url)\n")
        let onTerminal = RemoteAnnouncement.text(url: url, onTerminal: true)
        #expect(onTerminal.hasPrefix("Remote: \(url)\n"))
        #expect(onTerminal.contains("\u{2588}"))
    }
}

/// `--token-file`: a token kept across restarts.
@Suite struct RemoteTokenFileTests {
    @Test func aNewFileGetsATokenThatTheNextStartReadsBack() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.url.appendingPathComponent("token").path
        let first = try RemoteToken.load(orCreateAt: path)
        #expect(first.text.utf8.count == 32)
        #expect(try RemoteToken.load(orCreateAt: path) == first)
        #expect(try FileSystem.fileStatus(path).isRegular)
    }

    @Test func aFileWithoutATokenIsRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.url.appendingPathComponent("token").path
        try Array("short\n".utf8).withUnsafeBytes { try Data($0).write(to: folder.url.appendingPathComponent("token")) }
        #expect(throws: RemoteToken.FileFailure.self) { try RemoteToken.load(orCreateAt: path) }
    }

    @Test func randomTokensCarryAtLeast128BitsAndDiffer() {
        let tokens = (0..<50).map { _ in RemoteToken.random().text }
        #expect(Set(tokens).count == 50)
        #expect(tokens.allSatisfy { $0.utf8.count == 32 && RemoteToken($0) != nil })
    }
}
