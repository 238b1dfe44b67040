import Foundation
import Posix
import SessionLog
import TestSupport
import Testing

@Suite("Session log folder and rotation")
struct SessionLogStoreTests {
    /// Writes `count` logs of `size` bytes, one a minute apart from `start`, and returns their names oldest first.
    func writeLogs(in folder: String, count: Int, size: Int, start: Date) throws -> [String] {
        try (0..<count).map { index in
            let name =
                SessionLogStore.stem(startedAt: start.addingTimeInterval(Double(index) * 60), command: "run")
                + SessionLogStore.fileExtension
            try Data(repeating: UInt8(ascii: "x"), count: size).write(to: URL(fileURLWithPath: folder + "/" + name))
            return name
        }
    }

    @Test func rotationRemovesTheOldestUntilTheTotalFitsTheSizeCap() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let names = try writeLogs(in: folder.url.path, count: 5, size: 300_000, start: Date())
        var store = SessionLogStore(directory: folder.url.path)
        store.maximumTotalBytes = 1_000_000
        let removed = store.rotate()
        #expect(removed == Array(names.prefix(2)))
        #expect(store.entries().map(\.name) == Array(names.suffix(3)))
        #expect(store.entries().reduce(0) { $0 + $1.size } <= 1_000_000)
    }

    @Test func aFolderExactlyAtTheSizeCapLosesNothing() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let names = try writeLogs(in: folder.url.path, count: 4, size: 250_000, start: Date())
        var store = SessionLogStore(directory: folder.url.path)
        store.maximumTotalBytes = 1_000_000
        #expect(store.rotate().isEmpty)
        #expect(store.entries().map(\.name) == names)
    }

    @Test func rotationRemovesLogsOlderThanTheAgeCap() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let now = Date()
        let names = try writeLogs(in: folder.url.path, count: 3, size: 100, start: now.addingTimeInterval(-40 * 86_400))
        // 31 days, 30 days less an hour, 1 day.
        let ages: [Double] = [31 * 86_400, 30 * 86_400 - 3600, 86_400]
        for (name, age) in zip(names, ages) {
            try FileManager.default.setAttributes(
                [.modificationDate: now.addingTimeInterval(-age)], ofItemAtPath: folder.url.path + "/" + name)
        }
        let store = SessionLogStore(directory: folder.url.path)
        #expect(store.rotate(now: now) == [names[0]])
        #expect(store.entries().map(\.name) == Array(names.suffix(2)))
    }

    @Test func aShorterAgeCapFromTheConfigurationRemovesMore() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let now = Date()
        let names = try writeLogs(in: folder.url.path, count: 2, size: 100, start: now)
        try FileManager.default.setAttributes(
            [.modificationDate: now.addingTimeInterval(-3 * 3600)], ofItemAtPath: folder.url.path + "/" + names[0])
        var store = SessionLogStore(directory: folder.url.path)
        store.maximumAge = .seconds(2 * 3600)
        #expect(store.rotate(now: now) == [names[0]])
    }

    @Test func findsALogByItsIdByAUniquePartOrTheNewest() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        let names = try writeLogs(in: folder.url.path, count: 3, size: 10, start: start)
        let store = SessionLogStore(directory: folder.url.path)
        #expect(store.find(nil)?.name == names[2])
        #expect(store.find(String(names[1].dropLast(6)))?.name == names[1])
        #expect(store.find("run") == nil) // all three: ambiguous
        #expect(store.find("no-such-log") == nil)
    }
}
