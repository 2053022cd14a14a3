/// Attributes the bytes allocated and freed on this thread to owners.
///
/// Wrap the work an owner does in ``measure(owner:_:)``; the scope's net allocation
/// delta is added to that owner's balance. Scopes nest: bytes are attributed to the
/// innermost open scope only, so the balances of all owners add up to the net change
/// of the process heap made inside measured scopes.
///
/// ```swift
/// let ledger = OwnerLedger<String>()
/// let buffer = ledger.measure(owner: "cache") { [UInt8](repeating: 1, count: 65_536) }
/// ledger.balance(of: "cache")   // 65_536 plus the array header, size-class rounded
/// ```
///
/// A ledger is confined to the thread that uses it.
///
/// Measuring, and every other change or lookup of a balance, is inlinable, so that a client
/// module specializes it for its own owner type: unspecialized, every scope would look up
/// generic metadata and hash through witness tables, which cost more than the two counter
/// reads the measurement itself needs.
public final class OwnerLedger<Owner: Hashable> {
    // A ledger is confined to one thread, so dynamic exclusivity checks on these (two
    // runtime calls per access, on every measured scope) buy nothing. Measured, and compiled
    // out with PRESSURELAB_EXCLUSIVITY_CHECKED (Benchmarks/README.md, "Exclusivity checks";
    // docs/architecture.md, "Unsafe code").
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    @usableFromInline var balances: [Owner: Int] = [:]
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    @usableFromInline var openScopes: [LedgerScope] = []
    /// The sum of all balances, kept as they change (read on every device step).
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    @usableFromInline var runningTotal = 0
    /// When the outermost scope opened: the running total and the thread's net counter, so
    /// that ``liveTotal`` can count what open scopes have allocated but not yet attributed.
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    @usableFromInline var totalAtOuterOpen = 0
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    @usableFromInline var netAtOuterOpen: UInt64 = 0
    /// Bytes allocated or freed since the outermost scope opened that belong to no owner of
    /// this ledger (its own bookkeeping, ``unattributed(_:)`` work).
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    @usableFromInline var excludedSinceOuterOpen = 0
    /// For each owner changed since ``markPeak()``: its balance at the mark (nil: not tracking).
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    @usableFromInline var balancesAtMark: [Owner: Int]?
    /// The thread's net counter when the outermost open ``unattributed(_:)`` region began:
    /// while one is open, ``liveTotal`` is frozen at that point (what others free or
    /// allocate there is theirs).
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    @usableFromInline var netAtUnattributedOpen: UInt64?

    /// When false, ``measure(owner:_:)`` only runs its body: no counters are read and no
    /// balance changes (to measure the cost of attribution itself).
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    public var isEnabled = true

    public init() {
        openScopes.reserveCapacity(16)
    }

    /// Runs `body`, attributing what it allocates and frees (outside nested scopes) to `owner`.
    ///
    /// - Returns: the body's result and the scope's own delta (nested scopes excluded).
    /// - Complexity: O(1) beyond `body`, plus one dictionary update.
    @discardableResult @inlinable
    public func measure<Result>(owner: Owner, _ body: () throws -> Result) rethrows -> Measured<Result> {
        guard isEnabled else { return Measured(value: try body(), delta: .zero) }
        let counters = ThreadAllocationCounters.current
        let entryAllocated = counters.allocated
        let entryDeallocated = counters.deallocated
        if openScopes.isEmpty {
            totalAtOuterOpen = runningTotal
            netAtOuterOpen = entryAllocated &- entryDeallocated
            excludedSinceOuterOpen = 0
        }
        openScopes.append(LedgerScope(startAllocated: entryAllocated, startDeallocated: entryDeallocated,
                                    nestedAllocated: 0, nestedDeallocated: 0))
        let result: Result
        do {
            result = try body()
        } catch {
            close(owner: owner, counters: counters, entryAllocated: entryAllocated, entryDeallocated: entryDeallocated)
            throw error
        }
        let delta = close(owner: owner, counters: counters,
                          entryAllocated: entryAllocated, entryDeallocated: entryDeallocated)
        return Measured(value: result, delta: delta)
    }

    /// Ends the innermost scope: the owner gets the scope's own net bytes; the enclosing
    /// scope is charged for neither this scope nor the ledger's bookkeeping.
    @discardableResult @inlinable
    func close(owner: Owner, counters: ThreadAllocationCounters,
                       entryAllocated: UInt64, entryDeallocated: UInt64) -> AllocationDelta {
        let endAllocated = counters.allocated
        let endDeallocated = counters.deallocated
        let scope = openScopes.removeLast()
        let own = AllocationDelta(
            allocated: Int(endAllocated &- scope.startAllocated) - scope.nestedAllocated,
            deallocated: Int(endDeallocated &- scope.startDeallocated) - scope.nestedDeallocated)
        // A scope that changed nothing leaves the dictionary alone (no hashing). A resize of
        // the dictionary is charged to no owner: the enclosing scope counts everything from
        // this scope's entry to here as nested, below.
        if own.net != 0 { change(owner, by: own.net) }
        if !openScopes.isEmpty {
            let last = openScopes.count - 1
            openScopes[last].nestedAllocated += Int(counters.allocated &- entryAllocated)
            openScopes[last].nestedDeallocated += Int(counters.deallocated &- entryDeallocated)
        }
        return own
    }

    /// Adds `net` to `owner`'s balance, noting its balance at the peak mark first. Called by
    /// `close`, whose enclosing scope counts everything since the closed scope's entry as
    /// nested: so the notes' own allocations are not excluded a second time here.
    @inlinable
    func change(_ owner: Owner, by net: Int) {
        if balancesAtMark != nil { noteBeforeChange(owner, excluding: false) }
        balances[owner, default: 0] += net
        runningTotal += net
    }

    /// Notes `owner`'s balance at the mark before its first change since the mark; the note's
    /// allocation is charged to no owner (`excluding`: through ``excludingBookkeeping(_:)``,
    /// when no enclosing accounting covers it already).
    @inlinable
    func noteBeforeChange(_ owner: Owner, excluding: Bool = true) {
        guard excluding else {
            // One lookup: an owner noted already keeps its note (adding 0 changes nothing);
            // otherwise its balance now is inserted where the lookup ended.
            balancesAtMark?[owner, default: balances[owner] ?? 0] += 0
            return
        }
        guard balancesAtMark?.index(forKey: owner) == nil else { return }
        let old = balances[owner] ?? 0
        excludingBookkeeping { balancesAtMark?[owner] = old }
    }

    /// Adds `bytes` to an owner's balance without measuring (e.g. to move a balance).
    @inlinable
    public func adjust(owner: Owner, by bytes: Int) {
        if balancesAtMark != nil { noteBeforeChange(owner) }
        excludingBookkeeping { balances[owner, default: 0] += bytes }
        runningTotal += bytes
    }

    /// Runs `body` charging what it allocates and frees to no owner of this ledger, as if it
    /// were a scope of another ledger (another app's work done while this one's scope is
    /// open, such as a kill the device makes in the middle of this app's allocation).
    /// Regions nest: an inner one inside an outer one of this ledger charges nothing itself (the
    /// outermost region excludes all of it, once).
    public func unattributed<Result>(_ body: () throws -> Result) rethrows -> Result {
        guard isEnabled, !openScopes.isEmpty, netAtUnattributedOpen == nil else { return try body() }
        let counters = ThreadAllocationCounters.current
        let entryAllocated = counters.allocated
        let entryDeallocated = counters.deallocated
        netAtUnattributedOpen = entryAllocated &- entryDeallocated
        defer {
            netAtUnattributedOpen = nil
            let allocated = Int(counters.allocated &- entryAllocated)
            let deallocated = Int(counters.deallocated &- entryDeallocated)
            let last = openScopes.count - 1
            openScopes[last].nestedAllocated += allocated
            openScopes[last].nestedDeallocated += deallocated
            excludedSinceOuterOpen += allocated - deallocated
        }
        return try body()
    }

    /// The bytes the owners hold right now: the attributed total plus what open scopes have
    /// allocated (net) and not yet attributed. Equal to ``total`` outside scopes.
    ///
    /// - Complexity: O(1): two counter loads. Inlinable: the device adds it up over every app
    /// at every admitted allocation.
    @inlinable
    public var liveTotal: Int {
        guard isEnabled, !openScopes.isEmpty else { return runningTotal }
        let counters = ThreadAllocationCounters.current
        // Inside an unattributed region, the figure stops where the region began.
        let now = netAtUnattributedOpen ?? (counters.allocated &- counters.deallocated)
        let net = Int(bitPattern: UInt(now &- netAtOuterOpen))
        return totalAtOuterOpen + net - excludedSinceOuterOpen
    }

    // MARK: - Balances at a peak

    /// Marks now as the peak: ``balancesAtPeak()`` returns the balances as they are now,
    /// however they change later. Costs one dictionary entry per owner changed after the
    /// mark (the mark's undo log), so marking at every step of a growing run stays linear.
    public func markPeak() {
        if balancesAtMark?.isEmpty == false || balancesAtMark == nil {
            excludingBookkeeping { balancesAtMark = [:] }
        }
    }

    /// Stops keeping balances at the mark (changes cost nothing extra again).
    public func stopTrackingPeak() {
        excludingBookkeeping { balancesAtMark = nil }
    }

    /// The balances at the last ``markPeak()`` (the current ones when never marked).
    public func balancesAtPeak() -> [Owner: Int] {
        guard let undo = balancesAtMark, !undo.isEmpty else { return balances }
        var result = balances
        for (owner, old) in undo {
            if old == 0 { result.removeValue(forKey: owner) } else { result[owner] = old }
        }
        return result
    }

    /// Runs a change of the ledger's own dictionary so that what it allocates or frees (a
    /// resize, or a copy while a reader shares the dictionary) is charged to no owner: the
    /// innermost open scope counts it as nested, like a scope of its own.
    @inlinable
    func excludingBookkeeping(_ change: () -> Void) {
        guard isEnabled, !openScopes.isEmpty else { return change() }
        let counters = ThreadAllocationCounters.current
        let entryAllocated = counters.allocated
        let entryDeallocated = counters.deallocated
        change()
        let allocated = Int(counters.allocated &- entryAllocated)
        let deallocated = Int(counters.deallocated &- entryDeallocated)
        let last = openScopes.count - 1
        openScopes[last].nestedAllocated += allocated
        openScopes[last].nestedDeallocated += deallocated
        excludedSinceOuterOpen += allocated - deallocated
    }

    /// The net bytes attributed to `owner` so far.
    @inlinable
    public func balance(of owner: Owner) -> Int { balances[owner] ?? 0 }

    /// Every owner's net balance. The dictionary is shared, not copied: the ledger's next
    /// change copies it, and that copy is charged to no owner.
    public var allBalances: [Owner: Int] { balances }

    /// The sum of every owner's balance.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var total: Int { runningTotal }

    /// Forgets an owner (its balance is dropped, e.g. when the owner no longer exists).
    @inlinable
    public func remove(owner: Owner) {
        if balancesAtMark != nil, balances[owner] != nil { noteBeforeChange(owner) }
        var removed: Int?
        excludingBookkeeping { removed = balances.removeValue(forKey: owner) }
        if let removed { runningTotal -= removed }
    }
}

/// One open measured scope: the thread's counters when it opened, and what nested scopes
/// took since (which is theirs, not this scope's).
@usableFromInline
struct LedgerScope {
    @usableFromInline var startAllocated: UInt64
    @usableFromInline var startDeallocated: UInt64
    @usableFromInline var nestedAllocated: Int
    @usableFromInline var nestedDeallocated: Int

    @inlinable
    init(startAllocated: UInt64, startDeallocated: UInt64, nestedAllocated: Int, nestedDeallocated: Int) {
        self.startAllocated = startAllocated
        self.startDeallocated = startDeallocated
        self.nestedAllocated = nestedAllocated
        self.nestedDeallocated = nestedDeallocated
    }
}

/// A value produced inside a measured scope, with what the scope allocated and freed.
public struct Measured<Value> {
    public var value: Value
    public var delta: AllocationDelta

    @inlinable
    public init(value: Value, delta: AllocationDelta) {
        self.value = value
        self.delta = delta
    }
}
