import Glibc
import Posix
import TestSupport
import Testing

/// `NewFile`: creating and moving files never replaces one; a taken name gets `-1`, `-2`, ... (one rule for both).
@Suite struct NewFileTests {
    @Test func aNewFileInAMissingFolderTakesTheNameThenTheNextSuffixes() throws {
        try withTemporaryDirectory { directory in
            let folder = directory + "/rep-001"
            let first = try NewFile.create(in: folder, name: "DSC00001.JPG")
            try NewFile.syncAndClose(first.descriptor, path: first.path)
            let second = try NewFile.create(in: folder, name: "DSC00001.JPG")
            try NewFile.syncAndClose(second.descriptor, path: second.path)
            let third = try NewFile.create(in: folder, name: "DSC00001.JPG")
            try NewFile.syncAndClose(third.descriptor, path: third.path)
            #expect(
                [first.fileName, second.fileName, third.fileName] == [
                    "DSC00001.JPG", "DSC00001-1.JPG", "DSC00001-2.JPG"
                ])
            #expect(third.path == folder + "/DSC00001-2.JPG")
            #expect(FileSystem.exists(folder + "/DSC00001-1.JPG"))
        }
    }

    @Test func aMoveNeverReplacesAFileAndLeavesNothingAtTheOldPath() throws {
        try withTemporaryDirectory { directory in
            try FileSystem.replace(directory + "/unmatched/DSC00002.ARW", with: [1], creatingFolder: true)
            try FileSystem.replace(directory + "/incoming/DSC00002.ARW", with: [2], creatingFolder: true)
            let moved = try NewFile.move(
                directory + "/incoming/DSC00002.ARW", toFolder: directory + "/unmatched", name: "DSC00002.ARW")
            #expect(moved.fileName == "DSC00002-1.ARW")
            #expect(try FileSystem.readAll(directory + "/unmatched/DSC00002.ARW") == [1])
            #expect(try FileSystem.readAll(moved.path) == [2])
            #expect(!FileSystem.exists(directory + "/incoming/DSC00002.ARW"))
        }
    }

    @Test func aFolderThatCannotBeMadeIsNamedInTheError() throws {
        try withTemporaryDirectory { directory in
            try FileSystem.replace(directory + "/plain-file", with: [0], creatingFolder: false)
            let error = try #require(throws: NewFileError.self) {
                try NewFile.create(in: directory + "/plain-file/sub", name: "a.JPG")
            }
            #expect(error.path == directory + "/plain-file/sub")
            #expect(error.reason.hasPrefix("cannot create the folder ("))
        }
    }
}
