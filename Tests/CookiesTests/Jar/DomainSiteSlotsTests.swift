import Testing

@testable import Cookies

/// The loader's table of cookie domains met so far, keyed on the bytes a jar file's reader hands over.
struct DomainSiteSlotsTests {
    static let domains: [(bytes: [UInt8], source: String)] = [
        (Array("example.com".utf8), "a plain domain"),
        (Array("a-rather-long-host-name.example.co.uk".utf8), "longer than one eight-byte word several times"),
        ([0x68, 0xFF, 0x2E, 0x63, 0x6F, 0x6D], "ill-formed UTF-8 (h 0xFF .com), which decodes to other bytes"),
        ([], "empty"),
    ]

    @Test(arguments: domains.indices)
    func aDomainIsFoundByTheBytesItWasAddedWith(_ row: Int) {
        let (bytes, source) = Self.domains[row]
        var table = DomainSiteSlots()
        bytes.withUnsafeBufferPointer { bytes in
            #expect(table.siteSlot(ofDomain: bytes) == nil, "\(source): not added yet")
            table.add(bytes, siteSlot: 7)
            #expect(table.siteSlot(ofDomain: bytes) == 7, "\(source): found again")
        }
        #expect(table.count == 1)
    }

    /// Many domains, so that the table grows and rehashes: each is still found, none twice.
    @Test func growingKeepsEveryDomain() {
        var table = DomainSiteSlots()
        let domains = (0..<2_000).map { Array("host\($0).example".utf8) }
        for (slot, domain) in domains.enumerated() {
            domain.withUnsafeBufferPointer { table.add($0, siteSlot: slot) }
        }
        for (slot, domain) in domains.enumerated() {
            #expect(domain.withUnsafeBufferPointer { table.siteSlot(ofDomain: $0) } == slot)
        }
    }
}
