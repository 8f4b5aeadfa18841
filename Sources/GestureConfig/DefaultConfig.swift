// The built-in configuration: config/gestured.toml, embedded so that the daemon and
// gesturectl run without an installed file. A test keeps the two identical.
public let defaultConfigText = #"""
# gestured — default configuration.
#
# Installed as /etc/gestured/gestured.toml. Check a file with `gesturectl check FILE`;
# the daemon reloads it on SIGHUP (a bad file is reported and the running config
# stays). Distances are in millimetres (mm), times in milliseconds (ms).
#
# Each [recognizer.NAME] table is one recognizer. NAME is what events carry in
# their "name" field; `kind` says what it recognizes: tap, pan, swipe, pinch,
# rotate, long_press, circle, checkmark, tickle, or shape (a stroke taught by
# example: config/examples/taught-shape.toml is this file with one). Recognizers
# see touches in the order they appear in this file.
# A file with no [recognizer.NAME] tables recognizes nothing (gestured warns); the
# built-in recognizers apply only when there is no config file at all.
#
# Keys every recognizer takes:
#   requires_failure_of = ["other", …]  hold this one back until all of these have
#                                        failed; if one of them succeeds, this one fails
#   simultaneous_with   = ["other", …]  may be recognized together with these (either
#                                        side saying so is enough)
#   can_prevent         = true          false: its success does not make others fail
#   can_be_prevented    = true          false: others' success does not make it fail
#   devices             = ["name", …]   only on devices whose name contains one of these
#   region              = [x0, y0, x1, y1]  only for touches that start inside this part
#                                        of the screen (0…1 from the top-left)
#   edge                = "left"            only for touches from this edge or corner of the
#                                        screen as seen: left, right, top, bottom, top_left,
#                                        top_right, bottom_left, bottom_right, or none (away
#                                        from every edge); its events carry "edge"
#   edge_mm             = 4.5               how near the edge the first finger must land (a
#                                        fast swipe landing up to twice that far in counts
#                                        when its first motion traced back 25 ms reaches it)
#   edge_range          = [0.0, 1.0]        the part of the edge that counts: from the top for
#                                        left/right, from the left for top/bottom
#   edge_at             = "start"           or "start_or_end": also when the finger ends there
#   profiles            = ["default"]       the runtime profiles it takes part in: the
#                                        daemon starts in "default"; `gesturectl profile
#                                        NAME` and `gesturectl pause` switch at runtime
#   consume             = false             true: on an exclusive [[device]], the apps never
#                                        see the touches it takes (see Devices below)
# Otherwise, when one recognizer begins or is recognized, every other one still
# deciding about the same touches fails (UIKit's rule).

# Two taps close together in time and place. Listed before `tap`, which waits for it.
[recognizer.double_tap]
kind = "tap"
taps = 2                    # taps needed
fingers = 1                 # fingers per tap
max_movement_mm = 5.0       # a finger moving further than this is not tapping
max_duration_ms = 350       # longest a tap may stay down
multi_tap_window_ms = 300   # longest wait from one lift to the next touch
multi_tap_slop_mm = 12.0    # furthest the next tap may land from the last

# A single tap. It waits until double_tap has failed, so a double tap is not also
# reported as a tap (a single tap is reported when the double-tap window closes).
[recognizer.tap]
kind = "tap"
taps = 1
fingers = 1
max_movement_mm = 5.0
max_duration_ms = 350
requires_failure_of = ["double_tap"]

# Two fingers down and up together.
[recognizer.two_finger_tap]
kind = "tap"
taps = 1
fingers = 2
max_movement_mm = 5.0
max_duration_ms = 400

# A circle drawn with one finger, either way round. Reported at lift with its
# center, radius_mm, fit_error and direction. It runs together with pan, so a pan
# still starts at once while the circle is being drawn.
[recognizer.circle]
kind = "circle"
tolerance = 0.2             # RMS distance from the fitted circle / radius
oval_tolerance = 0.09       # or, for an oval: RMS distance from its fitted ellipse / its mean radius
min_oval_aspect = 0.5       # an oval's minor axis / major axis, at least (0.55 is 0.2 from its circle)
min_radius_mm = 6.0         # smaller circles are ignored
min_sweep_deg = 260         # degrees the stroke must turn around the centre
max_sweep_deg = 500         # more than this is a spiral, not a circle
inner_box_fraction = 0.4   # no point may come nearer the centre than this box (× radius): rejects S, 8, spirals
min_box_coverage = 0.55     # the stroke's bounding box must cover this much of the circle's
max_end_gap = 1.2           # start-to-end distance, in radii
max_corner_share = 0.55     # share of the turning done in the sharpest fifth of the stroke: a
                            # circle turns evenly (people's: 0.28–0.43), a rectangle or triangle
                            # at its corners (0.63 and more)
max_tail = 0.3              # farther end's distance outside the circle × start-to-end gap, in radii²:
                            # a line with a loop at its end (a P) is not a circle
max_straight = 0.95         # longest stretch turning less than a third of the average, in radii:
                            # a line into or out of a loop (a lasso, a 9) is not a circle
max_duration_ms = 6000
simultaneous_with = ["pan", "long_press"]   # a circle may start with a pause

# A checkmark: a short stroke down-right, then a longer one up-right. Reported at
# lift with its vertex.
[recognizer.checkmark]
kind = "checkmark"
min_arm_ratio = 1.4         # second arm at least this many times as long as the first
max_arm_ratio = 8.0
min_rise_ratio = 1.5        # second arm rises at least this many times the first arm's drop
                            # (with min_arm_ratio, what tells a checkmark from a V)
min_run_ratio = 1.0         # or, a flat second arm: runs right this many times the first arm's
                            # length, ending above the start (a V's runs about as far as its first)
min_length_mm = 8.0         # both arms together
first_arm_min_deg = 0       # first arm's angle below horizontal (90 = straight down)
first_arm_max_deg = 115
second_arm_min_deg = 20     # second arm's angle above horizontal
second_arm_max_deg = 85
max_arm_bend = 1.7          # path length / straight length of each arm
max_other_corner_deg = 60   # sharpest turn anywhere but at the vertex (a checkmark has one corner)
max_second_arm_bow = 0.25   # second arm's farthest point from its chord / its length (past the corner, short of a lift hook)
max_duration_ms = 3000
simultaneous_with = ["pan", "long_press"]   # so may a checkmark: a slow first arm looks like a long press

# Tickle: quick left-right scrubbing with one finger. Recognized as soon as the
# finger has turned `reversals` times.
[recognizer.tickle]
kind = "tickle"
reversals = 4               # direction changes needed
min_travel_mm = 6.0         # travel before a turn counts
max_stroke_ms = 400         # a stroke slower than this fails (too slow)
max_vertical_ratio = 0.6    # vertical / horizontal travel of a stroke, at most
simultaneous_with = ["pan", "long_press"]

# Swipe: one finger moving fast and straight, then lifting. Reported at lift with
# its direction. Judged by speed and straightness, not by how long it took: a
# long swipe across a tablet may take over a second. Runs together with pan.
[recognizer.swipe]
kind = "swipe"
fingers = 1
directions = ["left", "right", "up", "down"]   # also up_left, up_right, down_left,
                            # down_right: with one of those, the nearest of eight is taken
min_distance_mm = 15.0      # net travel
min_length = 0.0            # net travel as a share of the screen along it (0.33, 0.66: lisgd's M, L)
min_speed_mm_s = 80.0       # average speed from touch to lift (a quarter of it over the last 80 ms)
min_straightness = 0.75     # net travel / path length
max_duration_ms = 0         # 0: no limit
max_angle_deg = 30.0        # how far off the direction's axis the travel may be
simultaneous_with = ["pan"]

# Long press: one finger held still. Continuous: began once held long enough,
# changed as it moves afterwards, ended at lift.
[recognizer.long_press]
kind = "long_press"
fingers = 1
min_duration_ms = 500
max_movement_mm = 8.0       # moving more before the time is up fails it

# Pinch and rotate: two fingers spreading/closing or turning. Continuous: began,
# changed with scale (1 = as they landed) or rotation_deg (clockwise positive),
# ended. They run together with each other and with pan.
[recognizer.pinch]
kind = "pinch"
start_scale_delta = 0.12    # |scale - 1| before it begins
simultaneous_with = ["rotate", "pan"]

[recognizer.rotate]
kind = "rotate"
start_deg = 15.0            # turn before it begins
simultaneous_with = ["pan"]

# Pan: fingers moving together. Continuous: began, changed (translation_mm,
# velocity_mm_s), ended; cancelled if a touch is cancelled.
[recognizer.pan]
kind = "pan"
min_fingers = 1
max_fingers = 10
start_threshold_mm = 5.0    # movement before the pan begins
# step_mm = 3.0             # makes it a slider: began/changed only every step_mm along
# axis = "y"                # its axis ("x" or "y"; by default along its edge), each
                            # with "step": 1 (right/down) or -1

# Devices. A [[device]] entry matches by `match` (part of the name),
# `vendor_product` ("vvvv:pppp") or `syspath`, and sets:
#   size_mm = [width, height]   for panels that report no resolution
#   rotation = 0 | 90 | 180 | 270   clockwise, applied after calibration
#   use = false                 never use this device (true: use it even if udev
#                               does not tag it a touchscreen)
#   exclusive = true            grab it and give the apps a uinput twin of it that
#                               gets every touch no recognizer with consume = true
#                               takes; a touch such a recognizer could take is held
#                               back until it fails (then replayed) or takes it
#   hold_ms = 300               with exclusive: the longest a touch is held back
# Without a resolution or a size_mm, gestured assumes the longer side is 150 mm
# (a 7-inch panel) and warns.
#
# [[device]]
# match = "Atmel maXTouch"
# size_mm = [154.0, 86.0]

# Pen. A touchscreen's pen (the tablet node of the same device: the same udev
# LIBINPUT_DEVICE_GROUP, or the same parent device) is read beside it: while the
# pen is in proximity, and release_ms after it left, the screen's touches start
# nothing and what they began is cancelled ("pen in proximity"), as libinput's
# touch arbitration does (its release time is 90 ms).
#
# [pen]
# release_ms = 90

"""#
