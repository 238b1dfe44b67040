import ByteCoding
import Posix
import TestSupport
import Testing

@testable import NetworkMonitor

/// The one message of a fixture file that holds exactly one netlink message.
func fixtureMessage(_ path: String) throws -> NetlinkMessage {
    let lines = try Fixtures.hexLines("netlink/" + path)
    let messages = try lines.flatMap { try NetlinkMessage.parseAll(datagram: $0) }
    try #require(messages.count == 1)
    return messages[0]
}

@Suite("nl80211 and generic netlink decoding of real messages", .enabled(if: Fixtures.available, Fixtures.skipReason))
struct NL80211DecoderTests {
    @Test func connectEventCarriesStatusAndTheSSIDOfItsRequestIEs() throws {
        let message = try fixtureMessage("wl-nl80211/nl80211_connect_event.hex")
        #expect(message.type == 50)
        #expect(message.sequence == 0 && message.portID == 0)
        let event = try NL80211Event(message: message)
        #expect(event == .connect(interfaceIndex: 467, status: 0, requestSSID: SSID("Test-WIFI")))
    }

    @Test func disconnectEventCarriesTheReasonAndNoAccessPointFlag() throws {
        let event = try NL80211Event(message: try fixtureMessage("wl-nl80211/nl80211_disconnect_event.hex"))
        #expect(event == .disconnect(interfaceIndex: 467, reason: 3, byAccessPoint: false))
    }

    @Test(arguments: ["wl-nl80211/nl80211_deauthenticate_event.hex", "wl-nl80211/nl80211_disassociate_event.hex"])
    func deauthAndDisassocAreDropHintsWithTheFrameReason(path: String) throws {
        let event = try NL80211Event(message: try fixtureMessage(path))
        guard case let .dropHint(index, reason) = event else {
            Issue.record("expected a drop hint, got \(event)")
            return
        }
        #expect(index == 778)
        #expect(reason != nil)
    }

    @Test func scanAndCQMEventsAreOther() throws {
        let event = try NL80211Event(message: try fixtureMessage("wl-nl80211/nl80211_notify_cqm_event.hex"))
        #expect(event == .other(command: 64))
    }

    @Test func getInterfaceReplyOfAnUnassociatedStationHasNoSSID() throws {
        let interface = try NL80211Interface(
            message: try fixtureMessage("pyroute2/nl80211_get_interface_reply_wlo1.hex"))
        #expect(interface.index == 3)
        #expect(interface.name == "wlo1")
        #expect(interface.ssid == nil)
    }

    @Test func getInterfaceReplyWithSSIDAttributeGivesTheSSID() throws {
        let path = "reconstructed/nl80211_get_interface_reply_with_ssid_eduroam.RECONSTRUCTED.hex"
        let interface = try NL80211Interface(message: try fixtureMessage(path))
        #expect(interface.name == "wlp5s0")
        #expect(interface.ssid == SSID("eduroam"))
    }

    @Test func familyReplyGivesTheDynamicIDAndEveryGroup() throws {
        let family = try GenericFamily(
            message: try fixtureMessage("pureswift-netlink/genl_getfamily_nl80211_reply.hex"))
        #expect(family.name == "nl80211")
        #expect(family.id == 28)
        #expect(family.multicastGroups == ["config": 4, "scan": 5, "regulatory": 6, "mlme": 7, "vendor": 8, "nan": 9])
    }

    @Test func familyRequestMatchesTheCapturedRequestBody() throws {
        let captured = try fixtureMessage("linux-6.18-netns/genl_getfamily_request_nl80211.hex")
        let ours = GenericFamily.request(name: "nl80211", sequence: captured.sequence)
        #expect(ours.type == captured.type)
        #expect(ours.payload == captured.payload)
    }

    @Test func familyReplyRoundTripsThroughOurEncoder() throws {
        let family = GenericFamily(name: "nl80211", id: 33, multicastGroups: ["mlme": 7, "config": 4])
        var writer = NetlinkAttributeWriter(prefix: [GenericNetlink.commandNewFamily, 2, 0, 0])
        family.replyAttributes(&writer)
        let message = NetlinkMessage(type: GenericNetlink.controllerFamily, flags: [], payload: writer.bytes)
        let parsed = try NetlinkMessage.parseAll(datagram: message.encoded())
        #expect(parsed == [message])
        #expect(try GenericFamily(message: parsed[0]) == family)
    }

    @Test(
        arguments: [
            ("pyroute2/nl80211_get_scan_dump_reply_sample1.hex", nil),
            ("pyroute2/nl80211_get_scan_dump_reply_sample2.hex", ""),
            ("pureswift-netlink/nl80211_get_scan_dump_reply_1.hex", "COLEMANCDA"),
            ("pureswift-netlink/nl80211_get_scan_dump_reply_2.hex", "Alsey Coleman Miller\u{2019}s iPhone"),
            ("wl-nl80211/nl80211_get_scan_dump_reply_test_wifi.hex", "Test-WIFI")
        ] as [(String, String?)])
    func scanDumpPartsGiveTheBSSAndItsSSIDElement(path: String, expected: String?) throws {
        let message = try fixtureMessage(path)
        #expect(message.flags.contains(.multi))
        let result = try #require(try NL80211ScanResult(message: message))
        #expect(result.bssid?.count == 6)
        #expect(!result.isAssociated) // none of the captures is the associated BSS
        if let expected {
            #expect(result.ssid == SSID(expected))
        } else {
            #expect(result.ssid != nil)
        }
    }

    @Test func hiddenSSIDIsEmptyAndNonASCIIRendersAsText() throws {
        let hidden = try #require(
            try NL80211ScanResult(message: try fixtureMessage("pyroute2/nl80211_get_scan_dump_reply_sample2.hex")))
        #expect(hidden.ssid?.bytes == [])
        let phone = try #require(
            try NL80211ScanResult(message: try fixtureMessage("pureswift-netlink/nl80211_get_scan_dump_reply_2.hex")))
        #expect(phone.ssid?.bytes.contains(0xE2) == true)
        #expect(phone.ssid?.description == "Alsey Coleman Miller\u{2019}s iPhone")
    }

    @Test func errorReplyCarriesTheErrnoAndTheRequestItAnswers() throws {
        let message = try fixtureMessage("pureswift-netlink/nlmsgerr_eopnotsupp.hex")
        #expect(message.type == NetlinkMessageType.error)
        let error = try NetlinkErrorPayload(message: message)
        #expect(error.errno == 95)
        #expect(!error.isAcknowledgement)
    }

    @Test func cappedAckIsAnAcknowledgement() throws {
        let message = try fixtureMessage("pureswift-netlink/nlmsgerr_ack_capped.hex")
        #expect(message.flags.contains(.capped))
        #expect(try NetlinkErrorPayload(message: message).isAcknowledgement)
    }

    @Test func familyLookupOnAKernelWithoutWiFiIsENOENT() throws {
        let error = try NetlinkErrorPayload(
            message: try fixtureMessage("linux-6.18-netns/genl_getfamily_nl80211_ENOENT.hex"))
        #expect(Errno(rawValue: error.errno) == .noSuchFileOrDirectory)
        #expect(error.requestType == GenericNetlink.controllerFamily)
    }
}
