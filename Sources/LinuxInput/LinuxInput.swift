import GestureCore
import CLibevdev
import CLibudev
import CMtdev
