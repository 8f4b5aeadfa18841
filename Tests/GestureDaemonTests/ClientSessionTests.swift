import GestureCore
import Testing

@testable import GestureDaemon
@testable import GestureProtocol

/// The protocol state machine, driven byte by byte as the server would.
@Suite struct ClientSessionTests {
    func lines(_ actions: [ClientSession.Action]) -> [String] {
        actions.compactMap { if case .send(let l) = $0 { return l } else { return nil } }
    }

    func errorCodes(_ actions: [ClientSession.Action]) -> [String] {
        lines(actions).compactMap { (try? JSONValue.parse($0))?["code"]?.string }
    }

    @Test func pingEchoesItsID() {
        var s = ClientSession()
        let a = s.received(Array("{\"cmd\":\"ping\",\"id\":7}\n".utf8))
        #expect(lines(a) == ["{\"type\":\"pong\",\"id\":7}"])
    }

    /// Readers disagree on `{"cmd":"ping","cmd":"pause"}` (most keep the last,
    /// some the first): neither is taken, at any depth.
    @Test func aKeyGivenTwiceIsABadArgument() throws {
        for line in [
            #"{"cmd":"ping","cmd":"pause"}"#, #"{"cmd":"pause","cmd":"pause"}"#,
            #"{"cmd":"subscribe","name":"a","name":"b"}"#, #"{"cmd":"ping","id":{"a":1,"a":2}}"#,
            #"{"cmd":"ping","c\u006dd":"pause"}"#,
        ] {
            var s = ClientSession()
            let a = s.received(Array((line + "\n").utf8))
            #expect(a.count == 1, "\(line)")
            let reply = try JSONValue.parse(try #require(lines(a).first))
            #expect(reply["code"] == .string("bad_argument"), "\(line)")
            #expect(
                reply["message"]?.string?.hasSuffix("is given more than once; give each key once") == true, "\(line)")
        }
        #expect(throws: JSONParseError.self) { try JSONValue.parse(#"{"a":1,"a":1}"#) }
        #expect(try JSONValue.parse(#"{"a":{"b":1},"b":{"a":1}}"#)["b"] == .object([("a", .number(1))]))
    }

    @Test func aRequestSplitAcrossReadsIsOneRequest() {
        var s = ClientSession()
        #expect(s.received(Array("{\"cmd\":".utf8)).isEmpty)
        #expect(s.received(Array("\"ping\"}".utf8)).isEmpty)
        #expect(lines(s.received([0x0A])) == ["{\"type\":\"pong\"}"])
    }

    @Test func twoRequestsInOneReadGetTwoReplies() {
        var s = ClientSession()
        let a = s.received(Array("{\"cmd\":\"ping\",\"id\":1}\r\n\n  \n{\"cmd\":\"status\",\"id\":\"x\"}\n".utf8))
        #expect(a == [.send("{\"type\":\"pong\",\"id\":1}"), .sendStatus(id: .string("x"))])
    }

    @Test func subscribeReadsEveryFilter() {
        var s = ClientSession()
        let a = s.received(
            Array(
                #"{"cmd":"subscribe","name":["a","b"],"kind":"circle","state":["recognized","began"],"device":"ts","failures":true}"#
                    .utf8) + [0x0A])
        let f = SubscriptionFilter(
            names: ["a", "b"], kinds: [.circle], states: [.recognized, .began],
            devices: ["ts"], failures: true)
        #expect(a == [.subscribe(f), .sendSubscribed(f, id: nil)])
        #expect(s.subscription == f)
    }

    @Test func badArgumentsAreRejectedWithTheirReason() {
        var s = ClientSession()
        #expect(errorCodes(s.received(Array("{\"cmd\":\"subscribe\",\"kind\":\"swirl\"}\n".utf8))) == ["bad_argument"])
        #expect(errorCodes(s.received(Array("{\"cmd\":\"subscribe\",\"kinds\":\"tap\"}\n".utf8))) == ["bad_argument"])
        #expect(errorCodes(s.received(Array("{\"cmd\":\"subscribe\",\"failures\":1}\n".utf8))) == ["bad_argument"])
        #expect(
            errorCodes(s.received(Array("{\"cmd\":\"subscribe\",\"state\":\"possible\"}\n".utf8))) == ["bad_argument"])
        #expect(s.subscription == nil)
        #expect(s.errors == 4)
        #expect(!s.isClosed)
    }

    @Test func malformedAndUnknownLinesGetErrors() {
        var s = ClientSession()
        #expect(errorCodes(s.received(Array("hello\n".utf8))) == ["malformed"])
        #expect(errorCodes(s.received(Array("[1,2]\n".utf8))) == ["malformed"])
        #expect(errorCodes(s.received(Array("{\"cmd\":\"dance\",\"id\":3}\n".utf8))) == ["unknown_command"])
        #expect(s.errors == 3)
    }

    @Test func repeatedErrorsCloseTheConnectionWithAFinalLine() {
        var s = ClientSession(limits: .init(maxErrors: 3))
        let a = s.received(Array("x\ny\nz\n{\"cmd\":\"ping\"}\n".utf8))
        #expect(errorCodes(a) == ["malformed", "malformed", "malformed", "too_many_errors"])
        #expect(a.last == .close)
        #expect(s.isClosed)
        #expect(s.received(Array("{\"cmd\":\"ping\"}\n".utf8)).isEmpty)
    }

    @Test func anOverlongLineIsReportedOnceAndSkippedToItsNewline() {
        var s = ClientSession(limits: .init(maxLineBytes: 16))
        var a = s.received(Array(repeating: UInt8(ascii: "a"), count: 40))
        #expect(errorCodes(a) == ["line_too_long"])
        a = s.received(Array(repeating: UInt8(ascii: "a"), count: 100_000))
        #expect(a.isEmpty)
        a = s.received(Array("aaa\n{\"cmd\":\"ping\"}\n".utf8))
        #expect(lines(a) == ["{\"type\":\"pong\"}"])
    }

    @Test func aLineOfExactlyTheLimitIsAccepted() {
        var s = ClientSession(limits: .init(maxLineBytes: 14))
        #expect(lines(s.received(Array("{\"cmd\":\"ping\"}\n".utf8))) == ["{\"type\":\"pong\"}"])
    }

    @Test func endOfInputClosesANonSubscriberButNotASubscriber() {
        var plain = ClientSession()
        #expect(lines(plain.received(Array("{\"cmd\":\"ping\"}".utf8))).isEmpty)
        let end = plain.endOfInput()
        #expect(end == [.send("{\"type\":\"pong\"}"), .close])

        var sub = ClientSession()
        _ = sub.received(Array("{\"cmd\":\"subscribe\"}\n".utf8))
        #expect(sub.endOfInput().isEmpty)
        #expect(!sub.isClosed)
        #expect(sub.inputEnded)
    }

    @Test func unsubscribeForgetsTheFilter() {
        var s = ClientSession()
        _ = s.received(Array("{\"cmd\":\"subscribe\"}\n".utf8))
        let a = s.received(Array("{\"cmd\":\"unsubscribe\"}\n".utf8))
        #expect(a == [.unsubscribe, .send("{\"type\":\"unsubscribed\"}")])
        #expect(s.subscription == nil)
    }

    @Test func garbageBytesNeverCrashIt() {
        var s = ClientSession(limits: .init(maxLineBytes: 256, maxErrors: 1000))
        var rng = SplitMix64(seed: 42)
        for _ in 0..<2000 {
            let n = Int(rng.next() % 64)
            var bytes: [UInt8] = []
            for _ in 0..<n {
                let pick = rng.next() % 10
                bytes.append(
                    pick == 0
                        ? 0x0A
                        : pick < 4
                            ? Array("{}[]\":,\\u".utf8)[Int(rng.next() % 9)] : UInt8(truncatingIfNeeded: rng.next()))
            }
            _ = s.received(bytes)
        }
        #expect(s.errors > 0)
    }
}

@Suite struct JSONValueTests {
    @Test func parsesWhatRequestsUse() throws {
        let v = try JSONValue.parse(#" {"a": [1, -2.5e1, true, false, null], "b": "x\"\u00e9\ud83d\ude00"} "#)
        #expect(v["a"] == .array([.number(1), .number(-25), .bool(true), .bool(false), .null]))
        #expect(v["b"] == .string("x\"é😀"))
    }

    @Test func rejectsWhatIsNotJSON() {
        for text in [
            "", "{", "{\"a\"}", "{\"a\":1,}", "[1 2]", "01x", "\"\\x\"", "tru", "{\"a\":1} 2", "\"\u{01}\"", "1e999",
        ] {
            #expect(throws: JSONParseError.self, "\(text)") { try JSONValue.parse(text) }
        }
    }

    @Test func limitsNesting() {
        #expect(throws: JSONParseError.self) { try JSONValue.parse(String(repeating: "[", count: 100_000)) }
        #expect((try? JSONValue.parse(String(repeating: "[", count: 10) + String(repeating: "]", count: 10))) != nil)
    }
}
