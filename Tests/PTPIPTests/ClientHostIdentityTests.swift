import Foundation
import Testing

@testable import PTPIP
@testable import PTPIPCodec

/// The host GUID kept on disk so that paired cameras recognise this host.
@Suite("Host identity storage")
struct ClientHostIdentityTests {
    /// A fresh private directory, removed by the caller.
    static func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "hdrshoot-identity-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func theGUIDIsCreatedOnceWithMode0600AndReusedAfterwards() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/nested/host-guid"
        let first = try HostIdentity.loadOrCreate(at: path, friendlyName: "one")
        let second = try HostIdentity.loadOrCreate(at: path, friendlyName: "two")
        #expect(first.guid == second.guid)
        #expect(second.friendlyName == "two")
        #expect(first.guid != PTPIPGUID.zero)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == first.guid.description + "\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/nested") == ["host-guid"])
    }

    @Test func twoHostsGetDifferentGUIDs() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let one = try HostIdentity.loadOrCreate(at: directory + "/a")
        let two = try HostIdentity.loadOrCreate(at: directory + "/b")
        #expect(one.guid != two.guid)
    }

    @Test func theDefaultPathFollowsXDGThenHome() {
        #expect(
            HostIdentity.defaultStoragePath(environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"])
                == "/x/hdrshoot/host-guid")
        #expect(HostIdentity.defaultStoragePath(environment: ["HOME": "/h"]) == "/h/.config/hdrshoot/host-guid")
        // A relative XDG_CONFIG_HOME is invalid per the XDG spec and ignored.
        #expect(
            HostIdentity.defaultStoragePath(environment: ["XDG_CONFIG_HOME": "rel", "HOME": "/h"])
                == "/h/.config/hdrshoot/host-guid")
        #expect(HostIdentity.defaultStoragePath(environment: [:]) == nil)
    }

    @Test func theDefaultPathIsUsedWhenNoneIsGiven() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let identity = try HostIdentity.loadOrCreate(environment: ["XDG_CONFIG_HOME": directory])
        #expect(try HostIdentity.loadOrCreate(at: directory + "/hdrshoot/host-guid").guid == identity.guid)
    }

    @Test func aCorruptFileIsAnErrorNotSilentlyReplaced() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/host-guid"
        try "not a guid\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: PTPIPError.self) { _ = try HostIdentity.loadOrCreate(at: path) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "not a guid\n")
    }

    @Test(arguments: ["00112233445566778899aabbccddeeff", "00112233-4455-6677-8899-AABBCCDDEEFF"])
    func hexGUIDsParseInWireOrder(text: String) throws {
        let guid = try #require(PTPIPGUID(hex: text))
        #expect(
            guid.bytes == [
                0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF
            ])
    }

    @Test(arguments: ["", "0011", "zz112233445566778899aabbccddeeff", "00112233445566778899aabbccddeeff00"])
    func malformedHexGUIDsAreRejected(text: String) {
        #expect(PTPIPGUID(hex: text) == nil)
    }

    @Test func randomGUIDsHaveTheVersion4Layout() {
        let guid = PTPIPGUID.random()
        #expect(guid.bytes[6] >> 4 == 4)
        #expect(guid.bytes[8] >> 6 == 2)
    }
}
