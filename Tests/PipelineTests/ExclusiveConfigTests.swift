import GestureConfig
import GestureCore
import Testing

@Suite("config: exclusive devices and consuming recognizers")
struct ExclusiveConfigTests {
    func load(_ text: String) throws(ConfigErrors) -> Configuration {
        try ConfigLoader.load(text: text, file: "test.toml")
    }
    func errors(_ text: String) -> [String] {
        do {
            _ = try load(text)
            return []
        } catch { return error.errors.map(\.description) }
    }

    @Test func offByDefault() throws {
        let c = ConfigLoader.builtIn()
        #expect(c.recognizers.allSatisfy { !$0.consume })
        #expect(c.devices.allSatisfy { !$0.exclusive })
        #expect(c.makeArena(device: "x").consumers.isEmpty)
        let d = try load("[[device]]\nmatch = \"Atmel\"\n[recognizer.t]\nkind = \"tap\"\n")
        #expect(d.devices[0].exclusive == false)
        #expect(d.devices[0].hold == Millis(300))
    }

    @Test func exclusiveConsumeAndHoldAreRead() throws {
        let c = try load(
            """
            [recognizer.menu]
            kind = "swipe"
            edge = "left"
            consume = true

            [recognizer.tap]
            kind = "tap"

            [[device]]
            match = "Atmel"
            exclusive = true
            hold_ms = 250
            """)
        #expect(c.recognizers.map(\.consume) == [true, false])
        #expect(c.devices[0].exclusive)
        #expect(c.devices[0].hold == Millis(250))
        #expect(c.makeArena(device: "Atmel").consumers == [0])
        #expect(c.warnings.isEmpty)
    }

    @Test func mistakesNameFileLineAndKey() {
        #expect(
            errors(
                """
                [recognizer.menu]
                kind = "swipe"
                consume = "yes"

                [[device]]
                match = "Atmel"
                exclusive = 1
                hold_ms = 9000

                [[device]]
                match = "Other"
                hold_ms = 100

                [[device]]
                match = "Third"
                use = false
                exclusive = true
                """) == [
                    "test.toml:3: recognizer.menu.consume: expected true or false, got string \"yes\"",
                    "test.toml:7: device.0.exclusive: expected true or false, got integer 1",
                    "test.toml:8: device.0.hold_ms: expected an integer from 0 to 5000, got 9000",
                    "test.toml:12: device.1.hold_ms: hold_ms only applies to an exclusive device: set exclusive = true too",
                    "test.toml:17: device.2.exclusive: use = false never opens the device, so it cannot be exclusive",
                ])
    }

    @Test func consumingWithoutAnExclusiveDeviceIsWarnedAbout() throws {
        let c = try load("[recognizer.menu]\nkind = \"swipe\"\nconsume = true\n")
        #expect(
            c.warnings == [
                "test.toml:3: consume = true on menu keeps touches from the apps only on a [[device]] with exclusive = true, and there is none"
            ])
        let d = try load("[recognizer.t]\nkind = \"tap\"\n[[device]]\nmatch = \"A\"\nexclusive = true\n")
        #expect(d.warnings.count == 1)
        #expect(d.warnings.first?.contains("no recognizer that has consume = true") == true)
    }

    @Test func holdOnADeviceThatIsNotExclusiveIsWarnedAbout() throws {
        let c = try load(
            """
            [recognizer.tap]
            kind = "tap"

            [[device]]
            match = "Atmel"
            exclusive = false
            hold_ms = 200
            """)
        #expect(c.devices[0].exclusive == false)
        #expect(c.warnings == ["test.toml:7: device.0.hold_ms: hold_ms has no effect unless exclusive = true"])
        let on = try load(
            "[recognizer.m]\nkind = \"swipe\"\nedge = \"left\"\nconsume = true\n[[device]]\nmatch = \"A\"\nexclusive = true\nhold_ms = 200\n"
        )
        #expect(on.warnings.isEmpty)
    }

    @Test func aConsumerThatCouldTakeAnyTouchIsWarnedAbout() throws {
        let c = try load(
            """
            [recognizer.scroll]
            kind = "pan"
            consume = true

            [recognizer.menu]
            kind = "swipe"
            edge = "left"
            consume = true

            [recognizer.three]
            kind = "swipe"
            fingers = 3
            consume = true

            [recognizer.corner]
            kind = "tap"
            region = [0.9, 0.0, 1.0, 0.1]
            consume = true

            [recognizer.whole]
            kind = "tap"
            region = [0.0, 0.0, 1.0, 1.0]
            consume = true

            [recognizer.tap]
            kind = "tap"

            [[device]]
            match = "Atmel"
            exclusive = true
            hold_ms = 250
            """)
        #expect(
            c.warnings == [
                "test.toml:3: recognizer.scroll.consume: consume = true with no edge, region or finger count that keeps it from a touch: on an exclusive device every touch is held back from the apps until scroll fails, for up to hold_ms (250 ms)",
                "test.toml:23: recognizer.whole.consume: consume = true with no edge, region or finger count that keeps it from a touch: on an exclusive device every touch is held back from the apps until whole fails, for up to hold_ms (250 ms)",
            ])
        // Without an exclusive device the warning that consume does nothing says enough.
        let d = try load("[recognizer.scroll]\nkind = \"pan\"\nconsume = true\n")
        #expect(d.warnings.count == 1)
        #expect(d.warnings.first?.contains("there is none") == true)
    }
}
