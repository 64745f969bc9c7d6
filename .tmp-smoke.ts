import { startTestApp } from '/work/wt-g/test/support/testApp';
async function main() {
  for (const shapes of ['standard', 'alt', 'sparse'] as const) {
    const t = await startTestApp({ shapes });
    try {
      console.log('==', shapes);
      console.log(JSON.stringify(await t.call('messaging.senderIds', {})));
      const tpl = await t.call('messaging.templates.create', { name: 'Pay', body: 'Hi {{1}}, {{2}} paid', useCases: ['payroll'] });
      console.log('tpl', JSON.stringify(tpl));
      await t.control('clock', { advanceSeconds: 61 });
      console.log('tpls', JSON.stringify(await t.call('messaging.templates.list', {})));
      const pb = await t.call('messaging.phonebooks.create', { name: 'Staff', description: 'x' });
      console.log('pb', JSON.stringify(pb));
      await t.app.client().createContacts([{ name: 'A', phoneNumber: '08031110001' }, { name: 'B', phoneNumber: '08031110002' }], pb.id);
      console.log('pbs', JSON.stringify(await t.call('messaging.phonebooks.list', {})));
      console.log('pbget', JSON.stringify(await t.call('messaging.phonebooks.get', { id: pb.id })));
      const input = { target: { kind: 'phonebook' as const, phoneBookId: pb.id }, content: { kind: 'template' as const, templateId: tpl.id, values: ['Ada', 'N5'] }, emails: ['a@example.com'] };
      const q = await t.call('messaging.quote', input);
      console.log('quote', JSON.stringify(q));
      const sent = await t.call('messaging.send', { ...input, senderId: 'VENDESK', confirmedTotalKobo: q.totalKobo });
      console.log('sent', JSON.stringify(sent));
      if (sent.reference) console.log('status', JSON.stringify(await t.call('messaging.status', { reference: sent.reference })));
      console.log('history', JSON.stringify(await t.call('messaging.history', {})));
      const otp = await t.call('messaging.otp.send', { receiverNumber: '08031234567', senderId: 'VENDESK', numberOfDigits: 6, seconds: 60, emails: [] });
      console.log('otp', JSON.stringify(otp));
      const outbox = (await t.control('outbox')) as { data: { reference: string; code?: string }[] };
      const code = outbox.data.find((e) => e.reference === otp.reference)?.code ?? '';
      console.log('confirm', JSON.stringify(await t.call('messaging.otp.confirm', { reference: otp.reference!, code })));
      console.log('answers', t.app.client().answers.list().length);
    } catch (e) { console.log('ERR', e); } finally { await t.close(); }
  }
}
void main();
