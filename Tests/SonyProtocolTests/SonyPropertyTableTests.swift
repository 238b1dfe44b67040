import SonyProtocol
import Testing

/// The property model: a full dump, then change-only dumps keep it current.
struct SonyPropertyTableTests {
    static func shutter(current: UInt32) -> SonyPropertyDescriptor {
        SonyPropertyDescriptor(
            code: .shutterSpeed, dataType: .uint32, factoryValue: .uint32(0), currentValue: .uint32(current),
            form: .enumeration(
                settable: [.uint32(0x0001_003C), .uint32(0x0001_00FA)],
                supported: [.uint32(0), .uint32(0x0001_003C), .uint32(0x0001_00FA)]))
    }

    static let mode = SonyPropertyDescriptor(
        code: .exposureProgramMode, dataType: .uint32, enabled: .displayOnly,
        factoryValue: .uint32(1), currentValue: .uint32(0x0003_0004),
        form: .enumeration(settable: [], supported: [.uint32(1), .uint32(0x0003_0004)]))

    static let files = SonyPropertyDescriptor(
        code: .shootingFileInfo, dataType: .uint16, getSet: 0,
        factoryValue: .uint16(0), currentValue: .uint16(0),
        form: .range(minimum: .uint16(0), maximum: .uint16(0xFFFF), step: .uint16(1)))

    static let full = SonyPropertyDump(descriptors: [shutter(current: 0x0001_003C), mode, files])

    @Test func aFullDumpFillsTheTableInCameraOrder() {
        let table = SonyPropertyTable(Self.full)
        #expect(table.count == 3)
        #expect(table.codes == [.shutterSpeed, .exposureProgramMode, .shootingFileInfo])
        #expect(table.dump == Self.full)
        #expect(table.shutterSpeed?.label == "1/60")
        #expect(table.settableShutterSpeeds.map(\.label) == ["1/60", "1/250"])
        #expect(table.supportedShutterSpeeds.map(\.label) == ["BULB", "1/60", "1/250"])
        #expect(table.exposureMode == .shutterPriority)
        #expect(table.shootingFileInfo == .empty)
        #expect(table.focusMode == nil)
        #expect(table[.focusMode] == nil)
    }

    @Test func aChangeOnlyDumpUpdatesJustWhatItCarriesAndReportsWhatChanged() {
        var table = SonyPropertyTable(Self.full)
        var files = Self.files
        files.currentValue = .uint16(0x8001)
        let changed = table.apply(SonyPropertyDump(descriptors: [Self.shutter(current: 0x0001_00FA), files, Self.mode]))
        #expect(changed == [.shutterSpeed, .shootingFileInfo])
        #expect(table.shutterSpeed?.label == "1/250")
        #expect(table.shootingFileInfo?.hasImages == true)
        #expect(table.shootingFileInfo?.imagesWaiting == 1)
        #expect(table.count == 3)
        #expect(table.apply(SonyPropertyDump(descriptors: [])).isEmpty)
    }

    @Test func aPropertyFirstSeenInAChangeOnlyDumpIsAdded() {
        var table = SonyPropertyTable(SonyPropertyDump(descriptors: [Self.mode]))
        #expect(table.apply(SonyPropertyDump(descriptors: [Self.files])) == [.shootingFileInfo])
        #expect(table.codes == [.exposureProgramMode, .shootingFileInfo])
    }

    @Test func theSimulatorsChangeOnlyAnswerHoldsExactlyTheChangedDescriptors() {
        let before = SonyPropertyTable(Self.full)
        var after = before
        let first = after.setCurrentValue(.uint32(0x0001_00FA), for: .shutterSpeed)
        let again = after.setCurrentValue(.uint32(0x0001_00FA), for: .shutterSpeed)
        let unknown = after.setCurrentValue(.uint16(1), for: .focusMode)
        #expect(first)
        #expect(!again)
        #expect(!unknown)
        let changes = after.changes(since: before)
        #expect(changes.descriptors == [Self.shutter(current: 0x0001_00FA)])
        #expect(after.changes(since: after).descriptors.isEmpty)
        // A client that applies the answer ends up with the simulator's table.
        var client = before
        client.apply(changes)
        #expect(client == after)
    }

    @Test func modeFocusDestinationAndPriorityDecodeFromTheirValues() {
        var table = SonyPropertyTable()
        table.update(
            SonyPropertyDescriptor(
                code: .focusMode, dataType: .uint16, factoryValue: .uint16(2), currentValue: .uint16(1)))
        table.update(
            SonyPropertyDescriptor(
                code: .saveDestination, dataType: .uint16, factoryValue: .uint16(1), currentValue: .uint16(0x11)))
        table.update(
            SonyPropertyDescriptor(
                code: .priorityKeySettings, dataType: .uint8, factoryValue: .uint8(0), currentValue: .uint8(1)))
        table.update(
            SonyPropertyDescriptor(
                code: .exposureProgramMode, dataType: .uint32, factoryValue: .uint32(1),
                currentValue: .uint32(0x0002_0003)))
        #expect(table.focusMode == .manual)
        #expect(table.saveDestination == .hostAndCamera)
        #expect(table.priorityKey == .pcRemote)
        #expect(table.exposureMode == .aperturePriority)
        #expect(table.exposureMode?.allowsShutterSpeedControl == false)
    }
}
