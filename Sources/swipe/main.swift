// The command line lives in SwipeCommand.swift (ArgumentParser); see README.
print("swipe: under construction")
