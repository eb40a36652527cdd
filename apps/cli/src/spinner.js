/** A one-line spinner on a TTY; silent when output is not a terminal. */
export class Spinner {
    out;
    timer;
    frame = 0;
    static FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
    constructor(out) {
        this.out = out;
    }
    start(label) {
        this.stop();
        if (!this.out.isTTY)
            return;
        this.timer = setInterval(() => {
            this.out.write(`\r\x1b[2m${Spinner.FRAMES[this.frame++ % Spinner.FRAMES.length]} ${label}\x1b[0m\x1b[K`);
        }, 80);
    }
    /** Clears the spinner line so the next output starts clean. */
    stop() {
        if (!this.timer)
            return;
        clearInterval(this.timer);
        this.timer = undefined;
        this.out.write('\r\x1b[K');
    }
}
