import Cookies

/// The three-way merge of one sync: for every cookie identity in scope, the jar's version, the platform
/// store's and the version both held after the last sync (the record). A side whose version differs
/// from the record changed it (added, changed or deleted); the change is copied to the other side. When
/// both changed it differently, the conflict policy picks the winner. When both hold the same, only the
/// record moves. Pure: the engine reads the sides, plans, then writes what the plan says.
struct SyncPlan {
    /// One identity's outcome: what to write where, and what to record once it is written.
    struct Step {
        let identity: CookieIdentity
        /// The side to write to; nil when both sides agree already.
        let target: CookieSyncSide?
        /// The cookie to write on `target`; nil to delete `deleting` there.
        let cookie: Cookie?
        /// The target side's version to delete, when `cookie` is nil.
        let deleting: Cookie?
        /// The record's entry once the step is done (nil: no entry).
        let recordAfter: Cookie?
    }

    private(set) var steps: [Step] = []
    private(set) var conflicts: [CookieSyncConflict] = []

    init(
        jar: [CookieIdentity: Cookie], web: [CookieIdentity: Cookie], record: [CookieIdentity: Cookie],
        carried: CarriedCookieFields, policy: CookieConflictPolicy
    ) {
        var identities = Set(jar.keys)
        identities.formUnion(web.keys)
        identities.formUnion(record.keys)
        // A stable order (by domain, path, name) so that batches and reports are deterministic.
        let ordered = identities.sorted {
            ($0.domain, $0.path, $0.name, $0.isHostOnly ? 1 : 0) < ($1.domain, $1.path, $1.name, $1.isHostOnly ? 1 : 0)
        }
        func fields(_ cookie: Cookie?) -> SyncedCookieFields? {
            cookie.map { SyncedCookieFields($0, carried: carried) }
        }
        for identity in ordered {
            let (j, w, r) = (jar[identity], web[identity], record[identity])
            let (fj, fw, fr) = (fields(j), fields(w), fields(r))
            if fj == fw {
                if fj != fr {
                    steps.append(Step(identity: identity, target: nil, cookie: nil, deleting: nil, recordAfter: j))
                }
                continue
            }
            var winner: CookieSyncSide
            switch (fj != fr, fw != fr) {
            case (true, false): winner = .jar
            case (false, true): winner = .web
            default:
                winner = policy.winner(jar: j, web: w)
                conflicts.append(CookieSyncConflict(identity: identity, jar: j, web: w, recorded: r, winner: winner))
            }
            switch winner {
            case .jar:
                steps.append(
                    Step(identity: identity, target: .web, cookie: j, deleting: j == nil ? w : nil, recordAfter: j))
            case .web:
                let copy = w.map { $0.filling(uncarried: carried, from: j ?? r) }
                steps.append(Step(
                    identity: identity, target: .jar, cookie: copy, deleting: w == nil ? j : nil, recordAfter: copy))
            }
        }
    }
}
