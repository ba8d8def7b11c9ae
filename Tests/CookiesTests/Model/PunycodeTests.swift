import Testing
@testable import Cookies

/// RFC 3492 §7.1 sample strings (A)–(S), except (F) Hindi and (H) Korean. The RFC writes (I) with a mixed-case
/// annotation ("baDot"); our encoder writes all digits in lower case (RFC 3492 §5: digits are case-insensitive,
/// §6.3: the case of the output is the encoder's choice), so it is listed in lower case here.
private let rfc3492Samples: [(sample: String, unicode: String, punycode: String)] = [
    ("(A) Arabic (Egyptian)", "ليهمابتكلموشعربي؟", "egbpdaj6bu4bxfgehfvwxn"),
    ("(B) Chinese (simplified)", "他们为什么不说中文", "ihqwcrb4cv8a8dqg056pqjye"),
    ("(C) Chinese (traditional)", "他們爲什麽不說中文", "ihqwctvzc91f659drss3x8bo0yb"),
    ("(D) Czech", "Pro\u{10D}prost\u{11B}nemluv\u{ED}\u{10D}esky", "Proprostnemluvesky-uyb24dma41a"),
    ("(E) Hebrew", "למההםפשוטלאמדבריםעברית", "4dbcagdahymbxekheh6e0a7fei0b"),
    ("(G) Japanese (kanji and hiragana)", "なぜみんな日本語を話してくれないのか", "n8jok5ay5dzabd5bym9f0cm5685rrjetr6pdxa"),
    ("(I) Russian (Cyrillic)", "почемужеонинеговорятпорусски", "b1abfaaepdrnnbgefbadotcwatmq2g4l"),
    ("(J) Spanish", "Porqu\u{E9}nopuedensimplementehablarenEspa\u{F1}ol", "PorqunopuedensimplementehablarenEspaol-fmd56a"),
    ("(K) Vietnamese",
     "T\u{1EA1}isaoh\u{1ECD}kh\u{F4}ngth\u{1EC3}ch\u{1EC9}n\u{F3}iti\u{1EBF}ngVi\u{1EC7}t",
     "TisaohkhngthchnitingVit-kjcr8268qyxafd2f1b9g"),
    ("(L) 3<nen>B<gumi><kinhachi><sensei>", "3年B組金八先生", "3B-ww4c5e180e575a65lsy2b"),
    ("(M) <amuro><namie>-with-SUPER-MONKEYS", "安室奈美恵-with-SUPER-MONKEYS", "-with-SUPER-MONKEYS-pc58ag80a8qai00g7n9n"),
    ("(N) Hello-Another-Way-<sorezore><no><basho>", "Hello-Another-Way-それぞれの場所", "Hello-Another-Way--fc4qua05auwb3674vfr0b"),
    ("(O) <hitotsu><yane><no><shita>2", "ひとつ屋根の下2", "2-u9tlzr9756bt3uc0v"),
    ("(P) Maji<de>Koi<suru>5<byou><mae>", "MajiでKoiする5秒前", "MajiKoi5-783gue6qz075azm5e"),
    ("(Q) <pafii>de<runba>", "パフィーdeルンバ", "de-jg4avhby1noc0d"),
    ("(R) <sono><supiido><de>", "そのスピードで", "d9juau41awczczp"),
    ("(S) -> $1.00 <-", "-> $1.00 <-", "-> $1.00 <--"),
]

@Test(arguments: rfc3492Samples)
func punycodeEncodesSample(sample: String, unicode: String, punycode: String) {
    #expect(Punycode.encode(unicode.unicodeScalars) == punycode, "\(sample)")
}

/// RFC 3492 §6.4: the encoder must fail rather than overflow. 4000 U+00E9 followed by U+10FFFF needs a delta of
/// (0x10FFFF - 0xE9) × 4001 > 2^32 - 1.
@Test func punycodeEncoderReportsOverflow() {
    let scalars = Array(repeating: Unicode.Scalar(0xE9)!, count: 4000) + [Unicode.Scalar(0x10FFFF)!]
    #expect(Punycode.encode(scalars) == nil)
}

@Test func punycodeEmptyInput() {
    #expect(Punycode.encode(EmptyCollection<Unicode.Scalar>()) == "")
}
