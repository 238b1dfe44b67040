/// One thing a running shoot tells its watchers: the one `Codable` update type of the application layer.
///
/// `hdrshoot run --json` prints these, one JSON object per line (docs/json.md is the schema); the phone remote
/// sends the same values. Each object names its case in `event`; the payload's fields sit beside it, so a line
/// reads `{"event":"progress","set":1,"frame":2,...}`. Fields that have no value are left out (schema version 1;
/// see `ShootSnapshot.schemaVersion`). A change of a field's meaning is a new schema version, never a quiet edit.
package enum ShootUpdate: Sendable, Hashable {
    /// The whole state at once: the first update every new subscriber gets.
    case snapshot(ShootSnapshot)
    /// The controller moved to another state (connecting, proposed, shooting, ...).
    case state(StateChange)
    /// What will be shot, matched to the camera: the question before the first frame.
    case summary(Summary)
    /// The plan a run is about to shoot (a range extension announces the grown plan).
    case plan(Plan)
    /// A run checked the camera and starts at a frame.
    case started(Started)
    /// A frame reached a phase.
    case progress(Progress)
    /// A transient camera error; the step is tried again after a delay.
    case retrying(Retrying)
    /// A sentence for the photographer (a key pressed, the network lost, a range extension).
    case note(Note)
    /// A file crossed the link and is written.
    case downloaded(Downloaded)
    /// Every frame has fired; the rest is downloading.
    case allFired(AllFired)
    /// A hold was added; shooting parks before the next frame.
    case paused(Hold)
    /// A hold was released.
    case resumed(Hold)
    /// A reconnect attempt starts after a delay.
    case reconnecting(Reconnecting)
    /// A reconnect attempt failed.
    case reconnectFailed(ReconnectFailed)
    /// The camera is back.
    case reconnected(Reconnected)
    /// A range verdict (`--check`) for a set or the whole bracket.
    case rangeCheck(RangeCheck)
    /// A run ended (also the last update of the shoot).
    case finished(Finished)
    /// A series waits for its next repetition.
    case waiting(Waiting)
    /// A series' repetition starts.
    case repetitionStarted(RepetitionStarted)
    /// A series' repetition ended.
    case repetitionFinished(RepetitionFinished)
    /// A series ended (stopped between repetitions, or every repetition done).
    case seriesFinished(SeriesFinished)

    /// The name in the `event` field.
    package var event: String {
        switch self {
        case .snapshot: "snapshot"
        case .state: "state"
        case .summary: "summary"
        case .plan: "plan"
        case .started: "started"
        case .progress: "progress"
        case .retrying: "retrying"
        case .note: "note"
        case .downloaded: "downloaded"
        case .allFired: "allFired"
        case .paused: "paused"
        case .resumed: "resumed"
        case .reconnecting: "reconnecting"
        case .reconnectFailed: "reconnectFailed"
        case .reconnected: "reconnected"
        case .rangeCheck: "rangeCheck"
        case .finished: "finished"
        case .waiting: "waiting"
        case .repetitionStarted: "repetitionStarted"
        case .repetitionFinished: "repetitionFinished"
        case .seriesFinished: "seriesFinished"
        }
    }
}

// MARK: - Payloads

extension ShootUpdate {
    /// A frame's place: set and frame, both from 1.
    package struct Position: Sendable, Hashable, Codable {
        /// The set, from 1.
        package var set: Int
        /// The frame within its set, from 1.
        package var frame: Int

        /// Creates a position.
        package init(set: Int, frame: Int) {
            self.set = set
            self.frame = frame
        }
    }

    /// The controller's new state.
    package struct StateChange: Sendable, Hashable, Codable {
        /// The state.
        package var state: ShootPhase
        /// The question asked (state asking).
        package var question: Question?

        /// Creates a state change.
        package init(state: ShootPhase, question: Question? = nil) {
            self.state = state
            self.question = question
        }
    }

    /// The camera a shoot runs on, as the summary shows it.
    package struct Camera: Sendable, Hashable, Codable {
        /// The model name the body reports.
        package var model: String
        /// Its address.
        package var address: String
        /// Its serial number ("" when it reports none).
        package var serialNumber: String
        /// The battery level in percent, when the body reports it.
        package var batteryPercent: Int?
        /// The shots left on the card, when the body reports them.
        package var remainingShots: Int?

        /// Creates a camera line.
        package init(
            model: String, address: String, serialNumber: String, batteryPercent: Int? = nil,
            remainingShots: Int? = nil
        ) {
            self.model = model
            self.address = address
            self.serialNumber = serialNumber
            self.batteryPercent = batteryPercent
            self.remainingShots = remainingShots
        }
    }

    /// A speed the camera lacked and the one it shoots instead.
    package struct Substitution: Sendable, Hashable, Codable {
        /// The planned speed's label.
        package var planned: String
        /// The speed used.
        package var used: String

        /// Creates a substitution.
        package init(planned: String, used: String) {
            self.planned = planned
            self.used = used
        }
    }

    /// `--auto`'s readings and how they were found.
    package struct AutoReadings: Sendable, Hashable, Codable {
        /// The highlight reading.
        package var highlight: String
        /// The shadow reading.
        package var shadow: String
        /// Probe frames fired.
        package var probes: Int
        /// Whether the search converged.
        package var converged: Bool
        /// The camera's own meter reading, when it gave one.
        package var metered: String?

        /// Creates the readings.
        package init(highlight: String, shadow: String, probes: Int, converged: Bool, metered: String?) {
            self.highlight = highlight
            self.shadow = shadow
            self.probes = probes
            self.converged = converged
            self.metered = metered
        }
    }

    /// What will be shot, matched to the camera. A new bracket fills the plan fields; a resumed shoot fills
    /// `shoot`, `captured`, `start` and `possiblyDuplicated`.
    package struct Summary: Sendable, Hashable, Codable {
        /// Sets in the plan (a new bracket).
        package var sets: Int?
        /// Exposures in the plan.
        package var exposures: Int
        /// The longest exposure in seconds (a new bracket).
        package var longestExposureSeconds: Double?
        /// The estimated time at the tripod in seconds (a new bracket).
        package var estimatedSeconds: Double?
        /// The speeds by set (a new bracket).
        package var speeds: [[String]]?
        /// Speeds the camera lacked (a new bracket).
        package var substitutions: [Substitution]?
        /// The planner's warnings (a new bracket).
        package var warnings: [String]?
        /// What stops the shoot (the camera's mode, a missing speed), in types, each with its sentence in JSON
        /// (schema 2; schema 1 carried the sentences only): empty when it can go.
        package var blockers: [ShootBlocker]
        /// The camera.
        package var camera: Camera
        /// The output folder.
        package var output: String
        /// `--auto`'s readings.
        package var auto: AutoReadings?
        /// The journal id (a resumed shoot).
        package var shoot: String?
        /// Frames already saved (a resumed shoot).
        package var captured: Int?
        /// The first frame to shoot (a resumed shoot).
        package var start: Position?
        /// Frames that may have fired before the interruption (a resumed shoot).
        package var possiblyDuplicated: [Position]?

        /// A summary with the fields every kind of shoot has; the caller fills the rest.
        package init(exposures: Int, blockers: [ShootBlocker], camera: Camera, output: String) {
            self.exposures = exposures
            self.blockers = blockers
            self.camera = camera
            self.output = output
        }
    }

    /// The plan of a run.
    package struct Plan: Sendable, Hashable, Codable {
        /// The speeds by set, as labels.
        package var speeds: [[String]]
        /// The exposures in seconds, by set.
        package var exposureSeconds: [[Double]]

        /// Creates a plan.
        package init(speeds: [[String]], exposureSeconds: [[Double]]) {
            self.speeds = speeds
            self.exposureSeconds = exposureSeconds
        }

        /// Frames in the plan.
        package var exposures: Int { exposureSeconds.reduce(0) { $0 + $1.count } }

        /// How many frames come before set `set`, frame `frame` (both from 1) in plan order.
        package func framesBefore(set: Int, frame: Int) -> Int {
            exposureSeconds.prefix(max(0, set - 1)).reduce(0) { $0 + $1.count } + (frame - 1)
        }
    }

    /// A run starts.
    package struct Started: Sendable, Hashable, Codable {
        /// The set of the first frame to shoot.
        package var set: Int
        /// Its frame.
        package var frame: Int
        /// Frames already saved.
        package var completed: Int
        /// Frames in the plan.
        package var total: Int

        /// Creates the update.
        package init(set: Int, frame: Int, completed: Int, total: Int) {
            self.set = set
            self.frame = frame
            self.completed = completed
            self.total = total
        }
    }

    /// A frame reached a phase.
    package struct Progress: Sendable, Hashable, Codable {
        /// The set, from 1.
        package var set: Int
        /// The frame in its set, from 1.
        package var frame: Int
        /// Sets in the plan.
        package var sets: Int
        /// Frames in this frame's set.
        package var framesInSet: Int
        /// The planned speed's label.
        package var speed: String
        /// The camera setting used (the speed, or BULB with its hold).
        package var setting: String
        /// The phase: settingSpeed, capturing, inCamera, downloading, saved.
        package var phase: String
        /// Frames of the plan saved so far.
        package var completed: Int
        /// Frames in the plan.
        package var total: Int
        /// Frames of the plan fired so far: the saved ones and those waiting in the camera.
        package var fired: Int?
        /// Frames fired whose images wait in the camera to be downloaded.
        package var inCamera: Int?
        /// The saved files' paths (phase saved).
        package var files: [String]?
        /// Files of an interrupted attempt found and kept (phase saved).
        package var recoveredFiles: [String]?
        /// The speed the camera reported for the frame (phase saved).
        package var actualSpeed: String?

        /// Creates the update.
        package init(
            set: Int, frame: Int, sets: Int, framesInSet: Int, speed: String, setting: String, phase: String,
            completed: Int, total: Int
        ) {
            self.set = set
            self.frame = frame
            self.sets = sets
            self.framesInSet = framesInSet
            self.speed = speed
            self.setting = setting
            self.phase = phase
            self.completed = completed
            self.total = total
        }
    }

    /// A step is tried again.
    package struct Retrying: Sendable, Hashable, Codable {
        /// The set.
        package var set: Int
        /// The frame.
        package var frame: Int
        /// The phase that failed.
        package var phase: String
        /// The attempt about to start.
        package var attempt: Int
        /// Seconds until it starts.
        package var delaySeconds: Double
        /// What went wrong.
        package var message: String
    }

    /// A sentence for the photographer.
    package struct Note: Sendable, Hashable, Codable {
        /// The sentence.
        package var message: String
        /// Who says it: `camera` for what the body had to say (a fallback it took); nil for the shoot itself.
        package var from: String?

        /// Creates a note.
        package init(message: String, from: String? = nil) {
            self.message = message
            self.from = from
        }
    }

    /// A file was downloaded.
    package struct Downloaded: Sendable, Hashable, Codable {
        /// Its name.
        package var file: String
        /// Its size.
        package var bytes: Int
    }

    /// Every frame has fired.
    package struct AllFired: Sendable, Hashable, Codable {
        /// Frames whose images still wait in the camera.
        package var waiting: Int
    }

    /// A hold on shooting.
    package struct Hold: Sendable, Hashable, Codable {
        /// Who holds: user, network, connection, other.
        package var reason: String
        /// Context (an SSID, an interface).
        package var detail: String?

        /// Creates a hold.
        package init(reason: String, detail: String?) {
            self.reason = reason
            self.detail = detail
        }
    }

    /// A reconnect attempt is scheduled.
    package struct Reconnecting: Sendable, Hashable, Codable {
        /// The attempt.
        package var attempt: Int
        /// Seconds until it starts.
        package var delaySeconds: Double
    }

    /// A reconnect attempt failed.
    package struct ReconnectFailed: Sendable, Hashable, Codable {
        /// The attempt.
        package var attempt: Int
        /// Why, as a sentence.
        package var message: String
        /// Why, in a few words (`no answer (connection refused)`).
        package var cause: String
    }

    /// The camera is back.
    package struct Reconnected: Sendable, Hashable, Codable {
        /// The attempt that succeeded.
        package var attempt: Int
    }

    /// One end of a range verdict.
    package struct RangeEnd: Sendable, Hashable, Codable {
        /// The speed of the frame judged.
        package var speed: String
        /// Its clipped (or blocked) share, in percent.
        package var percent: Double
        /// How far the bracket falls short, when it does.
        package var missingEV: String?
        /// The speed that would cover it.
        package var add: String?

        /// Creates an end.
        package init(speed: String, percent: Double, missingEV: String?, add: String?) {
            self.speed = speed
            self.percent = percent
            self.missingEV = missingEV
            self.add = add
        }
    }

    /// A range verdict.
    package struct RangeCheck: Sendable, Hashable, Codable {
        /// `set` or `bracket`.
        package var scope: String
        /// The set judged (scope set).
        package var set: Int?
        /// Whether the range holds.
        package var holds: Bool
        /// The verdict as a person reads it.
        package var line: String
        /// The short end.
        package var highlights: RangeEnd
        /// The long end.
        package var shadows: RangeEnd

        /// Creates a verdict.
        package init(
            scope: String, set: Int?, holds: Bool, line: String, highlights: RangeEnd, shadows: RangeEnd
        ) {
            self.scope = scope
            self.set = set
            self.holds = holds
            self.line = line
            self.highlights = highlights
            self.shadows = shadows
        }
    }

    /// How a run ended.
    package struct Finished: Sendable, Hashable, Codable {
        /// Whether every frame of the plan is saved.
        package var complete: Bool
        /// Frames of the plan saved.
        package var completed: Int
        /// Frames in the plan.
        package var total: Int
        /// Frames saved by this run.
        package var capturedThisRun: Int
        /// Frames of the plan fired: the saved ones and those left in the camera.
        package var fired: Int?
        /// Frames fired whose images were left in the camera (`resume` downloads them first).
        package var inCamera: Int?
        /// The first frame not saved (where `resume` goes on).
        package var resumePosition: Position?
        /// Why it stopped early: stopRequested, cancelled, failed, reconnectGaveUp, recordingFailed.
        package var stopReason: String?
        /// The error that stopped it, as a sentence.
        package var message: String?
    }
}

// MARK: - A series

extension ShootUpdate {
    /// The wait for a repetition.
    package struct Waiting: Sendable, Hashable, Codable {
        /// The repetition to come, from 1.
        package var repetition: Int
        /// When it starts (ISO 8601, UTC).
        package var startsAt: String
        /// Seconds until then (to 0.1 s).
        package var inSeconds: Double

        /// Creates the update.
        package init(repetition: Int, startsAt: String, inSeconds: Double) {
            self.repetition = repetition
            self.startsAt = startsAt
            self.inSeconds = inSeconds
        }
    }

    /// A repetition starts.
    package struct RepetitionStarted: Sendable, Hashable, Codable {
        /// The repetition, from 1.
        package var repetition: Int
        /// Its exposures.
        package var exposures: Int
        /// `onTime`, `afterOverrun` or `late`.
        package var timing: String
        /// How late, in seconds (timing late).
        package var lateSeconds: Double?
        /// How far the previous repetition overran this start, in seconds (timing afterOverrun).
        package var overrunSeconds: Double?

        /// Creates the update.
        package init(repetition: Int, exposures: Int, timing: String) {
            self.repetition = repetition
            self.exposures = exposures
            self.timing = timing
        }
    }

    /// A repetition ended.
    package struct RepetitionFinished: Sendable, Hashable, Codable {
        /// The repetition, from 1.
        package var repetition: Int
        /// Whether every frame of it is saved.
        package var complete: Bool
        /// Its frames saved (the schema's older name for `saved`, kept so version 1 readers keep working).
        package var captured: Int
        /// Its frames saved.
        package var saved: Int?
        /// Its frames whose release the body confirmed (saved or still in the camera).
        package var fired: Int?
        /// Its frames fired whose image still waits in the camera.
        package var inCamera: Int?

        /// Creates the update.
        package init(repetition: Int, complete: Bool, saved: Int, fired: Int? = nil, inCamera: Int? = nil) {
            self.repetition = repetition
            self.complete = complete
            self.captured = saved
            self.saved = saved
            self.fired = fired
            self.inCamera = inCamera
        }
    }

    /// A series ended.
    package struct SeriesFinished: Sendable, Hashable, Codable {
        /// Whether every repetition of the schedule is done.
        package var complete: Bool
        /// Repetitions done.
        package var repetitionsDone: Int
        /// The repetition `resume` starts with, when the series is not over.
        package var next: Int?

        /// Creates the update.
        package init(complete: Bool, repetitionsDone: Int, next: Int?) {
            self.complete = complete
            self.repetitionsDone = repetitionsDone
            self.next = next
        }
    }
}

// MARK: - Coding

extension ShootUpdate: Codable {
    private enum EventKey: String, CodingKey {
        case event
    }

    /// Decodes the case named by `event`, then its payload from the same object.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: EventKey.self)
        let event = try container.decode(String.self, forKey: .event)
        switch event {
        case "snapshot": self = .snapshot(try ShootSnapshot(from: decoder))
        case "state": self = .state(try StateChange(from: decoder))
        case "summary": self = .summary(try Summary(from: decoder))
        case "plan": self = .plan(try Plan(from: decoder))
        case "started": self = .started(try Started(from: decoder))
        case "progress": self = .progress(try Progress(from: decoder))
        case "retrying": self = .retrying(try Retrying(from: decoder))
        case "note": self = .note(try Note(from: decoder))
        case "downloaded": self = .downloaded(try Downloaded(from: decoder))
        case "allFired": self = .allFired(try AllFired(from: decoder))
        case "paused": self = .paused(try Hold(from: decoder))
        case "resumed": self = .resumed(try Hold(from: decoder))
        case "reconnecting": self = .reconnecting(try Reconnecting(from: decoder))
        case "reconnectFailed": self = .reconnectFailed(try ReconnectFailed(from: decoder))
        case "reconnected": self = .reconnected(try Reconnected(from: decoder))
        case "rangeCheck": self = .rangeCheck(try RangeCheck(from: decoder))
        case "finished": self = .finished(try Finished(from: decoder))
        case "waiting": self = .waiting(try Waiting(from: decoder))
        case "repetitionStarted": self = .repetitionStarted(try RepetitionStarted(from: decoder))
        case "repetitionFinished": self = .repetitionFinished(try RepetitionFinished(from: decoder))
        case "seriesFinished": self = .seriesFinished(try SeriesFinished(from: decoder))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .event, in: container, debugDescription: "unknown event '\(event)'")
        }
    }

    /// Encodes `event` and the payload's fields into one object.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: EventKey.self)
        try container.encode(event, forKey: .event)
        switch self {
        case .snapshot(let payload): try payload.encode(to: encoder)
        case .state(let payload): try payload.encode(to: encoder)
        case .summary(let payload): try payload.encode(to: encoder)
        case .plan(let payload): try payload.encode(to: encoder)
        case .started(let payload): try payload.encode(to: encoder)
        case .progress(let payload): try payload.encode(to: encoder)
        case .retrying(let payload): try payload.encode(to: encoder)
        case .note(let payload): try payload.encode(to: encoder)
        case .downloaded(let payload): try payload.encode(to: encoder)
        case .allFired(let payload): try payload.encode(to: encoder)
        case .paused(let payload), .resumed(let payload): try payload.encode(to: encoder)
        case .reconnecting(let payload): try payload.encode(to: encoder)
        case .reconnectFailed(let payload): try payload.encode(to: encoder)
        case .reconnected(let payload): try payload.encode(to: encoder)
        case .rangeCheck(let payload): try payload.encode(to: encoder)
        case .finished(let payload): try payload.encode(to: encoder)
        case .waiting(let payload): try payload.encode(to: encoder)
        case .repetitionStarted(let payload): try payload.encode(to: encoder)
        case .repetitionFinished(let payload): try payload.encode(to: encoder)
        case .seriesFinished(let payload): try payload.encode(to: encoder)
        }
    }
}
