// The only clock the package's timing code reads is Date.now: tests that must give a call an exact
// time (the network never does) replace it for each test. `clock.now` is the time Date.now returns
// until a test moves it.
function useFakeClock() {
	const clock = { now: 0 };
	let spy;
	beforeEach(() => {
		clock.now = 0;
		spy = jest.spyOn(Date, 'now').mockImplementation(() => clock.now);
	});
	afterEach(() => spy.mockRestore());
	return clock;
}

module.exports = { useFakeClock };
