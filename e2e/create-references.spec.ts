// References you can see: each role slot shows what it holds as thumbnails, takes a pasted link, and
// the count against the model's limit is said once (on the slot), not again under the list.
import { AppShellPage } from './pages/app-shell-page.ts';
import { demoTest as test, expect } from './pages/app-fixtures.ts';
import { CreateImagePage } from './pages/create-image-page.ts';
import { CreateVideoPage } from './pages/create-video-page.ts';

test('a link pasted on a role slot is added there and shown as a thumbnail; one count per slot', async ({
  page,
  demoApp,
}) => {
  const shell = new AppShellPage(page);
  await shell.open(demoApp.url);
  await shell.goTo('create-video');
  const form = new CreateVideoPage(page);
  await form.chooseModel('videoa-3.1');
  const first = form.dropTarget('first_frame');
  await expect(first.getByTestId('drop-status')).toHaveText('0 of 1');

  await first.focus();
  await first.evaluate((el, url) => {
    const data = new DataTransfer();
    data.setData('text/plain', url);
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, 'https://images.example.com/first.png');
  await expect(first.getByTestId('drop-status')).toHaveText('1 of 1');
  await expect(first.getByTestId('slot-thumb')).toHaveCount(1);
  await expect(form.referenceMessage).toHaveText('Added as first frame.');
  await expect(form.listItems('referenceImages')).toHaveCount(1);
  await expect(form.listItems('referenceImages').getByTestId('item-thumb')).toHaveCount(1);

  // The count is the slot's: the list under it says no other "n of m".
  await expect(form.field('referenceImages')).not.toContainText(/\d+ of \d+|\d+\/\d+/);
  await expect(form.references).not.toContainText('0/1');
});

test('a reference that is not a web address is refused on entry; one that cannot be loaded says why', async ({
  page,
  demoApp,
}) => {
  const shell = new AppShellPage(page);
  await shell.open(demoApp.url);
  await shell.goTo('create-image');
  const form = new CreateImagePage(page);
  await form.chooseModel('imagea-2');
  const input = form.field('referenceImageURLs').getByRole('textbox');

  await input.fill('my holiday photo');
  await input.press('Enter');
  await expect(form.fieldError('referenceImageURLs')).toContainText('“my holiday photo” is not a web address');
  await expect(form.listItems('referenceImageURLs')).toHaveCount(0);
  await expect(input, 'the entry is kept to be corrected').toHaveValue('my holiday photo');
  await expect(input).toHaveAttribute('aria-invalid', 'true');
  await input.fill('my holiday photo, fixed');
  await expect(form.fieldError('referenceImageURLs'), 'editing clears the message').toHaveCount(0);

  // Nothing answers on port 9 of this machine: the item stays, with the reason instead of a broken image.
  await form.addToList('referenceImageURLs', ['http://127.0.0.1:9/nothing-here.png']);
  const item = form.listItems('referenceImageURLs');
  await expect(item).toHaveCount(1);
  await expect(item).toContainText('could not be loaded from its address');
  await expect(item.locator('img')).toHaveCount(0);
});
