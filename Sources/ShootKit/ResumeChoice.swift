import Shooting

/// What a `.resume` request comes to once its shoot is found and claimed (`ResumeLookup.find`): a series to
/// continue on its schedule, a bracket to shoot from its first frame not saved, or a bracket with every frame
/// saved already. A front end renders each (the terminal: the series' question and summary, the bracket's summary,
/// one "Nothing left to shoot" line) and maps it to its own outcome.
package enum ResumeChoice: Sendable {
    /// A series: the controller decides where its schedule resumes (`ShootController.resumeSeries`).
    case series(ShootJournal)
    /// A bracket with frames left, to be matched to the camera and shot from its start.
    case bracket(ResumedBracketStart)
    /// A bracket whose every frame is saved, though it was not marked complete (the process died at the very end):
    /// nothing to shoot. `exposures` is the plan's count.
    case allSaved(ShootJournal, exposures: Int)
}

extension ResumeChoice {
    /// `Nothing left to shoot: all 15 exposures are saved.`: what `resume` says of a bracket whose every frame is
    /// saved (`.allSaved`), and all it says.
    package static func allSavedSentence(exposures: Int) -> String {
        "Nothing left to shoot: all \(exposures) exposures are saved."
    }
}

extension ResumeLookup {
    /// The choice the found journal makes for `request` (`--restart-set` shoots the interrupted set again from its
    /// first frame); `followsCamera`: the camera was named, so the journal follows the one actually used; `store`:
    /// where the journal is saved.
    package func choice(_ request: ResumeRequest, followsCamera: Bool, store: JournalStore) -> ResumeChoice {
        if journal.series != nil { return .series(journal) }
        guard let resumePosition = journal.resumePosition else {
            return .allSaved(journal, exposures: journal.plan.totalExposures)
        }
        return .bracket(
            ResumedBracketStart(
                journal: journal, resumePosition: resumePosition, restartingSet: request.restartSet,
                followsCamera: followsCamera, store: store))
    }
}
