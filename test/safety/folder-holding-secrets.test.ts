/**
 * A folder read whole (tar, zip, cp -r, grep -r, rsync) that a credential pattern reaches into
 * through a wildcard: a browser profile folder (`~/.mozilla/firefox/<x>.default-release`,
 * `~/.config/google-chrome/Default`) holds the logins and cookies the patterns name one folder
 * further down. The folders beside them, and the profiles' neighbours, pass.
 */
import { testHoles } from './context.ts';

testHoles({
  'a browser profile folder read whole': [
    ['tar czf x.tgz ~/.mozilla/firefox/abcd1234.default-release/chrome', 'tar czf x.tgz ~/.mozilla/firefox/abcd1234.default-release'],
    ['cp -r ~/.config/nvim /tmp/x', 'cp -r ~/.config/google-chrome/Default /tmp/x'],
    ['zip -r x.zip ~/.config/nvim/lua', 'zip -r x.zip ~/.config/chromium/Profile\\ 1'],
    ['grep -r token ~/.config/gh-dash', 'grep -r token ~/.config/BraveSoftware/Brave-Browser/Default'],
    ['rsync -a ~/Library/Application\\ Support/Sublime\\ Text/ /tmp/x/', 'rsync -a ~/Library/Application\\ Support/Google/Chrome/Default/ /tmp/x/'],
    ['tar cf x.tar ~/.mozilla/firefox/abcd.default-release/chrome/userChrome.css', 'tar cf x.tar ~/.mozilla/firefox/abcd.default-release'],
  ],
  'a browser profile folder read whole, named by a glob': [
    ['tar czf x.tgz ~/.mozilla/firefox/*.default-release/chrome', 'tar czf x.tgz ~/.mozilla/firefox/*.default-release'],
    ['cp -r ~/.config/google-chrome/*/Extensions /tmp/x', 'cp -r ~/.config/google-chrome/Prof* /tmp/x'],
    ['grep -r TODO src/*', 'grep -r token ~/.config/chromium/*'],
  ],
});
