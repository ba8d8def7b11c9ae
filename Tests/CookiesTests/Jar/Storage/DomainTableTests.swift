import Testing

@testable import Cookies

/// The table of domains keyed on their UTF-8 bytes (the loader's sites of the domains a jar file's reader
/// hands over, the store's caches of site keys and public suffixes).
struct DomainTableTests {
    static let domains: [(bytes: [UInt8], source: String)] = [
        (Array("example.com".utf8), "a plain domain"),
        (Array("a-rather-long-host-name.example.co.uk".utf8), "longer than one eight-byte word several times"),
        ([0x68, 0xFF, 0x2E, 0x63, 0x6F, 0x6D], "ill-formed UTF-8 (h 0xFF .com), which decodes to other bytes"),
        ([], "empty"),
    ]

    @Test(arguments: domains.indices)
    func aDomainIsFoundByTheBytesItWasAddedWith(_ row: Int) {
        let (bytes, source) = Self.domains[row]
        var table = DomainTable<Int>()
        bytes.withUnsafeBufferPointer { bytes in
            #expect(table.value(ofDomain: bytes) == nil, "\(source): not added yet")
            table.add(bytes, value: 7)
            #expect(table.value(ofDomain: bytes) == 7, "\(source): found again")
        }
        #expect(table.count == 1)
    }

    /// Many domains, so that the table grows and rehashes: each is still found, none twice.
    @Test func growingKeepsEveryDomain() {
        var table = DomainTable<Int>()
        let domains = (0..<2_000).map { Array("host\($0).example".utf8) }
        for (slot, domain) in domains.enumerated() {
            domain.withUnsafeBufferPointer { table.add($0, value: slot) }
        }
        for (slot, domain) in domains.enumerated() {
            #expect(domain.withUnsafeBufferPointer { table.value(ofDomain: $0) } == slot)
        }
    }

    /// The store's caches update a value in place (a cached site's slot) and empty a full table (they are
    /// bounded): a removed domain is gone, and the table takes domains again, past its first growth.
    @Test func valuesChangeInPlaceAndRemoveAllEmptiesTheTable() throws {
        var table = DomainTable<Int>()
        let domains = (0..<300).map { "host\($0).example" }
        for (value, domain) in domains.enumerated() { table.add(domain, value: value) }
        let index = try #require(table.index(ofDomain: "host7.example"))
        table[index] = -7
        #expect(table.value(ofDomain: "host7.example") == -7)
        #expect(table.value(ofDomain: "host8.example") == 8)
        table.removeAll()
        #expect(table.count == 0)
        #expect(domains.allSatisfy { table.value(ofDomain: $0) == nil })
        for (value, domain) in domains.enumerated() { table.add(domain, value: value * 2) }
        #expect(domains.indices.allSatisfy { table.value(ofDomain: domains[$0]) == $0 * 2 })
    }
}
