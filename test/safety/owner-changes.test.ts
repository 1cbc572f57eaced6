/**
 * `chown -R` to the user whose home it is, of a folder in the home (`sudo chown -R $(whoami)
 * ~/.npm`: npm's own fix for EACCES, and the same for `~/.cache`, `~/.config`, `~/.ssh`) gives the
 * user back their own files: it passes. To anyone else, of a system path, of the home itself, and a
 * recursive mode change of those folders stay denied (the old owners and modes are recorded
 * nowhere).
 */
import { testHoles } from './context.ts';

testHoles({
  "chown -R to the user of the home's folders": [
    ['sudo chown -R $(whoami) ~/.npm', 'sudo chown -R root ~/.npm'],
    ['sudo chown -R $USER:$(id -gn) ~/.npm', 'sudo chown -R $(whoami) /usr/local'],
    ['chown -R $USER ~/.cache', 'chown -R nobody ~/.cache'],
    ['sudo chown -R "$USER" ~/.config/yarn', 'sudo chown -R $USER /etc'],
    ['sudo chown -R u:u ~/.ssh', 'sudo chown -R www-data ~/.ssh'],
    ['sudo chown -R `whoami` ~/.local/share/pnpm', 'chmod -R 777 ~/.npm'],
    ['sudo chown -R $(id -u):$(id -g) ~/.npm', 'sudo chown -R $(id -u) ~'],
  ],
});
