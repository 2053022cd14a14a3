import Foundation
@testable import PressureLab
import PressureLabHeap
import SystemPackage
import Testing

/// The swap file's slots: a region's bytes go into 1 MiB slots and come back exactly, in any
/// split; a slot given back is the next one written (the file does not grow while slots are
/// free); what a writer still stages is read back by its reader.
@Suite("Swap slots: one file of 1 MiB slots (SWAPFILE_CLUSTER), written over when given back")
struct SwapSlotTests {
    private func scratch() throws -> FilePath {
        let template = FilePath(NSTemporaryDirectory()).appending("pressurelab-slots-test-XXXXXX")
        return try HostFiles.makeUniqueDirectory(template: template)
    }

    /// A block of `count` seeded bytes (different at every offset), outside any ledger.
    private func memory(_ count: Int, seed: UInt64) throws -> RawMemory {
        let memory = try #require(RawMemory.allocate(count))
        var state = seed &+ 0x9E37_79B9_7F4A_7C15
        for piece in memory.pieces(count: count) {
            for index in piece.indices {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                piece[index] = UInt8(truncatingIfNeeded: state >> 33)
            }
        }
        return memory
    }

    /// A small piece, one across a slot's end, one of several slots, an odd tail.
    static let sizes = [1, 4095, 700_000, (1 << 20) + 12_345, 3 << 20, 17]

    @Test("a region in pieces of every size reads back exactly, in its slots; one byte more fails")
    func roundTrip() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory.string) }
        let file = try SlotFile(path: directory.appending("swapfile"))
        let ledger = OwnerLedger<MemoryOwner>()
        let writer = SwapSlotWriter(file: file, ledger: ledger)
        let blocks = try Self.sizes.enumerated().map { try memory($0.element, seed: UInt64($0.offset)) }
        defer { for block in blocks { block.release() } }
        for (block, size) in zip(blocks, Self.sizes) { #expect(writer.write(block, count: size)) }
        #expect(writer.finish())
        let total = Self.sizes.reduce(0, +)
        #expect(writer.bytes == total)
        #expect(writer.slots.count == (total + SlotFile.slotBytes - 1) / SlotFile.slotBytes)
        #expect(file.slotsInUse == writer.slots.count)

        let reader = SwapSlotReader(file: file, slots: writer.slots, bytes: writer.bytes)
        for (block, size) in zip(blocks, Self.sizes) {
            let back = try #require(RawMemory.allocate(size))
            defer { back.release() }
            #expect(reader.read(into: back, count: size))
            #expect(back.checksum(count: size) == block.checksum(count: size))
        }
        let extra = try #require(RawMemory.allocate(1))
        defer { extra.release() }
        #expect(!reader.read(into: extra, count: 1))
    }

    @Test("slots given back are written again, the last given first; the file grows only when none is free")
    func slotsAreReused() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory.string) }
        let file = try SlotFile(path: directory.appending("swapfile"))
        #expect(file.takeSlot() == 0 && file.takeSlot() == 1 && file.takeSlot() == 2)
        file.give(0)
        file.give(2)
        #expect(file.slotsInUse == 1)
        #expect(file.takeSlot() == 2 && file.takeSlot() == 0 && file.takeSlot() == 3)
        #expect(file.slotCount == 4 && file.slotsInUse == 4)
    }

    @Test("a region of more slots than the writer's list first holds, written inside its owner's measured scope, charges the owner nothing")
    func writesChargeNoOne() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory.string) }
        let file = try SlotFile(path: directory.appending("swapfile"))
        let ledger = OwnerLedger<MemoryOwner>()
        let owner = MemoryOwner(controller: ControllerID(screen: "app", instance: 0), category: .model)
        let size = 70 << 20
        let block = try #require(RawMemory.allocate(size, touchedWith: 0x5A))
        defer { block.release() }
        let writer = SwapSlotWriter(file: file, ledger: ledger)
        // The thread's page buffers are made at their first use (outside any scope in a run).
        let warm = try #require(RawMemory.allocate(100, touchedWith: 1))
        defer { warm.release() }
        let warmUp = SwapSlotWriter(file: file, ledger: ledger)
        #expect(warmUp.write(warm, count: 100) && warmUp.finish())
        warmUp.giveBack()
        let measured = ledger.measure(owner: owner) { writer.write(block, count: size) && writer.finish() }
        #expect(measured.value)
        #expect(writer.slots.count == 70)
        // The slot list outgrew the room it was made with (64 slots) inside the scope, to 128
        // (1 KiB and more): not charged. What is left is the scope's own bookkeeping, given back.
        #expect(measured.delta.net == 0 && measured.delta.allocated < 1024)
        #expect(ledger.balance(of: owner) == 0)
        let reader = SwapSlotReader(file: file, slots: writer.slots, bytes: writer.bytes)
        let back = try #require(RawMemory.allocate(size))
        defer { back.release() }
        #expect(reader.read(into: back, count: size))
        #expect(back.checksum(count: size) == block.checksum(count: size))
    }

    @Test("what a writer still stages (no slot written yet) is read back by its reader")
    func stagedTailReadsBack() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory.string) }
        let file = try SlotFile(path: directory.appending("swapfile"))
        let writer = SwapSlotWriter(file: file, ledger: OwnerLedger<MemoryOwner>())
        let size = (1 << 20) + 5_000
        let block = try memory(size, seed: 3)
        defer { block.release() }
        #expect(writer.write(block, count: size))
        // One slot is written, 5,000 bytes are staged: no finish.
        #expect(writer.slots.count == 1)
        let reader = writer.reader()
        let back = try #require(RawMemory.allocate(size))
        defer { back.release() }
        #expect(reader.read(into: back, count: size))
        #expect(back.checksum(count: size) == block.checksum(count: size))
        writer.giveBack()
        #expect(file.slotsInUse == 0)
    }
}
